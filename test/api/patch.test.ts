import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { ingest, mcp } from '../support/graphql.ts';
import { patchMcp } from '../support/fixtures.ts';
import { useServer } from '../support/lifecycle.ts';
import type { HttpResult, TestServer } from '../support/server.ts';

let seq = 0;
const datasetUrn = () => `urn:li:dataset:(urn:li:dataPlatform:hive,patch.t${++seq},PROD)`;
const enc = encodeURIComponent;
const US = '\u241f';

const TAG_KEYS = { tags: [`attribution${US}source`, 'tag'] };
const addTag = (urn: string, tag: string) =>
  patchMcp(urn, 'globalTags', { arrayPrimaryKeys: TAG_KEYS, patch: [{ op: 'add', path: `/tags//${tag}`, value: { tag } }] });

for (const backend of await backends()) {
  describe(`PATCH proposals: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => {
      server = s;
    });
    const batch = (...proposals: unknown[]): Promise<HttpResult> =>
      server.request('POST', '/aspects?action=ingestProposalBatch', { body: { proposals, async: 'false' } });
    const aspect = async (urn: string, name: string, version = 0) => {
      const res = await server.request('GET', `/aspects/${enc(urn)}?aspect=${name}&version=${version}`);
      return res.status === 404 ? undefined : (Object.values(res.json.aspect)[0] as Record<string, unknown>);
    };

    it('adds and removes tags by key, creating the entity and versioning each change', async () => {
      const urn = datasetUrn();
      assert.equal((await batch(addTag(urn, 'urn:li:tag:pii'), addTag(urn, 'urn:li:tag:gold'))).status, 200);
      assert.deepEqual((await server.request('POST', '/entities?action=exists', { body: { urn } })).json, { value: true });
      assert.deepEqual(await aspect(urn, 'globalTags'), { tags: [{ tag: 'urn:li:tag:pii' }, { tag: 'urn:li:tag:gold' }] });
      // remove_tag without a source: keys reordered, the path names only the tag (a subtree of every source).
      const remove = patchMcp(urn, 'globalTags', {
        arrayPrimaryKeys: { tags: ['tag', `attribution${US}source`] },
        patch: [{ op: 'remove', path: '/tags/urn:li:tag:pii', value: {} }],
      });
      assert.equal((await server.request('POST', '/aspects?action=ingestProposal', { body: { proposal: remove, async: 'false' } })).status, 200);
      assert.deepEqual(await aspect(urn, 'globalTags'), { tags: [{ tag: 'urn:li:tag:gold' }] });
      assert.deepEqual(await aspect(urn, 'globalTags', 2), { tags: [{ tag: 'urn:li:tag:pii' }, { tag: 'urn:li:tag:gold' }] });
      // Removing a tag that is not there changes nothing.
      const again = patchMcp(urn, 'globalTags', {
        arrayPrimaryKeys: { tags: ['tag', `attribution${US}source`] },
        patch: [{ op: 'remove', path: '/tags/urn:li:tag:nope', value: {} }],
      });
      assert.equal((await batch(again)).status, 200);
      assert.equal(await aspect(urn, 'globalTags', 3), undefined);
    });

    it("starts terms and owners from DataHub's template defaults", async () => {
      const urn = datasetUrn();
      const term = patchMcp(urn, 'glossaryTerms', {
        arrayPrimaryKeys: { terms: ['urn', `attribution${US}source`] },
        patch: [{ op: 'add', path: '/terms/urn:li:glossaryTerm:t1/', value: { urn: 'urn:li:glossaryTerm:t1' } }],
      });
      const owner = patchMcp(urn, 'ownership', {
        arrayPrimaryKeys: { owners: ['owner', 'type', 'typeUrn', `attribution${US}source`] },
        patch: [{ op: 'add', path: '/owners/urn:li:corpuser:jdoe/DATAOWNER//', value: { owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' } }],
      });
      assert.equal((await batch(term, owner)).status, 200);
      const terms = await aspect(urn, 'glossaryTerms');
      assert.deepEqual(terms?.terms, [{ urn: 'urn:li:glossaryTerm:t1' }]);
      assert.equal((terms?.auditStamp as { actor: string }).actor, 'urn:li:corpuser:__datahub_system');
      const ownership = await aspect(urn, 'ownership');
      assert.deepEqual(ownership?.owners, [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }]);
      assert.equal((ownership?.lastModified as { actor: string }).actor, 'urn:li:corpuser:__datahub_system');
    });

    it('patches lineage, custom properties and the description with plain JSON Patch arrays', async () => {
      const urn = datasetUrn();
      const up = 'urn:li:dataset:(urn:li:dataPlatform:hive,up,PROD)';
      await ingest(server, mcp(urn, 'datasetProperties', { name: 'kept', customProperties: { old: '1' } }));
      const res = await batch(
        patchMcp(urn, 'upstreamLineage', [
          { op: 'add', path: `/upstreams/${up}`, value: { auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' }, type: 'TRANSFORMED' } },
        ]),
        patchMcp(urn, 'datasetProperties', [
          { op: 'add', path: '/customProperties/a~1b~0c', value: 'v' },
          { op: 'remove', path: '/customProperties/old', value: {} },
          { op: 'add', path: '/description', value: 'hello' },
        ]),
      );
      assert.equal(res.status, 200, res.text);
      // The upstream's dataset comes back from the path, as DataHub re-injects key fields.
      assert.deepEqual((await aspect(urn, 'upstreamLineage'))?.upstreams, [
        { auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' }, type: 'TRANSFORMED', dataset: up },
      ]);
      // A keyed array the aspect lacked comes back empty, as DataHub's templates rebuild it.
      assert.deepEqual(await aspect(urn, 'datasetProperties'), { name: 'kept', customProperties: { 'a/b~c': 'v' }, description: 'hello', tags: [] });
      await batch(patchMcp(urn, 'upstreamLineage', [{ op: 'remove', path: `/upstreams/${up}`, value: {} }]));
      assert.deepEqual((await aspect(urn, 'upstreamLineage'))?.upstreams, []);
    });

    it('tags a schema field through editableSchemaMetadata', async () => {
      const urn = datasetUrn();
      const res = await batch(
        patchMcp(urn, 'editableSchemaMetadata', [
          { op: 'add', path: '/editableSchemaFieldInfo/col~11/globalTags/tags/urn:li:tag:f', value: { tag: 'urn:li:tag:f' } },
        ]),
      );
      assert.equal(res.status, 200, res.text);
      assert.deepEqual((await aspect(urn, 'editableSchemaMetadata'))?.editableSchemaFieldInfo, [
        { fieldPath: 'col/1', globalTags: { tags: [{ tag: 'urn:li:tag:f' }] } },
      ]);
    });

    it('applies PATCH over OpenAPI v3 as the emitter sends it', async () => {
      const urn = datasetUrn();
      const body = [
        {
          urn,
          globalTags: {
            value: { arrayPrimaryKeys: TAG_KEYS, patch: [{ op: 'add', path: '/tags//urn:li:tag:pii', value: { tag: 'urn:li:tag:pii' } }] },
            systemMetadata: null,
            headers: {},
          },
        },
      ];
      const res = await server.request('PATCH', '/openapi/v3/entity/dataset?async=false', { body });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json[0].globalTags.value, { tags: [{ tag: 'urn:li:tag:pii' }] });
      const missing = await server.request('PATCH', '/openapi/v3/entity/dataset', { body: [{ urn, globalTags: { value: { tags: [] } } }] });
      assert.equal(missing.status, 400);
      assert.match(missing.json.message, /Missing `patch` field/);
    });

    const refused: Array<[string, (urn: string) => unknown, number, RegExp]> = [
      [
        'an operation DataHub does not know',
        (urn) => patchMcp(urn, 'globalTags', [{ op: 'merge', path: '/tags/x', value: {} }]),
        400,
        /Unsupported PATCH operation: "merge"/,
      ],
      [
        'a result the aspect schema refuses',
        (urn) => patchMcp(urn, 'status', [{ op: 'add', path: '/removed', value: 'yes' }]),
        422,
        /proposals\[1\]: Aspect status is invalid/,
      ],
      [
        'a plain array on an aspect without a template',
        (urn) => patchMcp(urn, 'schemaMetadata', [{ op: 'add', path: '/schemaName', value: 'x' }]),
        400,
        /needs DataHub's generic form/,
      ],
      [
        'an envelope with a field DataHub does not take',
        (urn) => patchMcp(urn, 'globalTags', { patch: [], arrayPrimaryKeys: TAG_KEYS, mode: 'merge' }),
        400,
        /unknown field 'mode'/,
      ],
      [
        'a replace of a field that is not there',
        (urn) => patchMcp(urn, 'datasetProperties', [{ op: 'replace', path: '/description', value: 'x' }]),
        400,
        /path \/description does not exist/,
      ],
    ];
    for (const [what, build, status, message] of refused) {
      it(`refuses ${what}, storing nothing of the batch`, async () => {
        const urn = datasetUrn();
        const res = await batch(addTag(urn, 'urn:li:tag:first'), build(urn));
        assert.equal(res.status, status, res.text);
        assert.match(res.json.message, message);
        assert.deepEqual((await server.request('POST', '/entities?action=exists', { body: { urn } })).json, { value: false });
      });
    }
  });
}
