import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { restliAspect } from '../support/curation.ts';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import { createDataset, gqlData, gqlError } from '../support/graphql.ts';
import type { TestServer } from '../support/server.ts';

const ADMIN = 'urn:li:corpuser:datahub';
const BAD_REQUEST = { code: 400, type: 'BAD_REQUEST' };

let counter = 0;
const datasetUrn = (name = 'links') => `urn:li:dataset:(urn:li:dataPlatform:hive,${name}.t${++counter},PROD)`;

// smoke-test/tests/institutional_memory sends these documents.
const ADD = 'mutation addLink($input: AddLinkInput!) { addLink(input: $input) }';
const UPDATE = 'mutation updateLink($input: UpdateLinkInput!) { updateLink(input: $input) }';
const REMOVE = 'mutation removeLink($input: RemoveLinkInput!) { removeLink(input: $input) }';
const UPSERT = 'mutation upsertLink($input: UpsertLinkInput!) { upsertLink(input: $input) }';
const READ = 'query d($urn: String!) { dataset(urn: $urn) { institutionalMemory { elements { url label settings { showInAssetPreview } } } } }';

type Element = { url: string; description: string; createStamp: { actor: string }; updateStamp?: { actor: string }; settings?: unknown };
const elementsOf = async (server: TestServer, urn: string) => ((await restliAspect(server, urn, 'institutionalMemory'))?.elements ?? []) as Element[];

for (const backend of await backends()) {
  describe(`GraphQL link mutations: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => {
      server = s;
    });

    it('adds, updates and removes links, read back through Rest.li', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn);
      const runbook = { linkUrl: 'https://wiki.example.com/orders', label: 'Runbook', resourceUrn: urn };
      assert.deepEqual(await gqlData(server, ADD, { input: { ...runbook, settings: { showInAssetPreview: true } } }), { addLink: true });
      await gqlData(server, ADD, { input: { linkUrl: 'mailto:team@example.com', label: 'Team', resourceUrn: urn } });
      let elements = await elementsOf(server, urn);
      assert.deepEqual(
        elements.map((e) => [e.url, e.description, e.createStamp.actor]),
        [
          ['https://wiki.example.com/orders', 'Runbook', ADMIN],
          ['mailto:team@example.com', 'Team', ADMIN],
        ],
      );
      assert.deepEqual(elements[0]!.settings, { showInAssetPreview: true });

      const editor = await actorWithRole(server, `links-editor-${++counter}`, 'Editor');
      const update = {
        currentUrl: runbook.linkUrl,
        currentLabel: 'Runbook',
        linkUrl: 'https://wiki.example.com/orders/v2',
        label: 'Runbook v2',
        resourceUrn: urn,
      };
      assert.deepEqual(await gqlData(server, UPDATE, { input: update }, { auth: editor }), { updateLink: true });
      elements = await elementsOf(server, urn);
      assert.equal(elements[0]!.url, 'https://wiki.example.com/orders/v2');
      assert.equal(elements[0]!.createStamp.actor, ADMIN);
      assert.equal(elements[0]!.updateStamp?.actor, `urn:li:corpuser:links-editor-${counter}`);

      assert.deepEqual(await gqlData(server, REMOVE, { input: { linkUrl: 'mailto:team@example.com', resourceUrn: urn } }), { removeLink: true });
      assert.deepEqual(
        (await elementsOf(server, urn)).map((e) => e.description),
        ['Runbook v2'],
      );
    });

    it('upserts a link: updates the one with the url and label, adds one otherwise; GraphQL reads its settings', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn);
      const link = { linkUrl: 'https://example.com/docs', label: 'Docs', resourceUrn: urn };
      assert.deepEqual(await gqlData(server, UPSERT, { input: link }), { upsertLink: true });
      await gqlData(server, UPSERT, { input: { ...link, settings: { showInAssetPreview: true } } });
      await gqlData(server, UPSERT, { input: { ...link, label: 'More docs' } });
      const read = await gqlData(server, READ, { urn });
      assert.deepEqual(read.dataset.institutionalMemory.elements, [
        { url: 'https://example.com/docs', label: 'Docs', settings: { showInAssetPreview: true } },
        { url: 'https://example.com/docs', label: 'More docs', settings: null },
      ]);
      assert.equal((await elementsOf(server, urn))[0]!.updateStamp?.actor, ADMIN);
    });

    it('refuses a duplicate, a missing link, an unsafe url and a missing entity with DataHub’s messages', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn);
      const link = { linkUrl: 'https://example.com/a', label: 'A', resourceUrn: urn };
      await gqlData(server, ADD, { input: link });
      await gqlError(server, ADD, { input: link }, { ...BAD_REQUEST, message: "The link 'https://example.com/a' with label 'A' already exists" });
      await gqlError(
        server,
        UPDATE,
        { input: { currentUrl: 'https://example.com/b', currentLabel: 'B', linkUrl: 'https://example.com/c', label: 'C', resourceUrn: urn } },
        { ...BAD_REQUEST, message: "Failed to update the link 'https://example.com/b' with label 'B'. The link does not exist" },
      );
      await gqlError(
        server,
        ADD,
        { input: { ...link, linkUrl: 'javascript:alert(1)' } },
        {
          ...BAD_REQUEST,
          message: `Failed to change institutional memory for resource ${urn}. URL scheme 'javascript' is not allowed.`,
        },
      );
      const missing = datasetUrn('missing');
      await gqlError(
        server,
        ADD,
        { input: { ...link, resourceUrn: missing } },
        {
          ...BAD_REQUEST,
          message: `Failed to change institutional memory for resource ${missing}. Resource does not exist.`,
        },
      );
      assert.equal((await elementsOf(server, urn)).length, 1);
    });

    it('refuses a Reader, writing nothing', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn);
      const reader = await actorWithRole(server, `links-reader-${++counter}`, 'Reader');
      await gqlError(
        server,
        ADD,
        { input: { linkUrl: 'https://example.com', label: 'x', resourceUrn: urn } },
        { code: 403, type: 'UNAUTHORIZED', message: 'Unauthorized to perform this action. Please contact your DataHub administrator.' },
        { auth: reader },
      );
      assert.equal(await restliAspect(server, urn, 'institutionalMemory'), undefined);
    });
  });
}
