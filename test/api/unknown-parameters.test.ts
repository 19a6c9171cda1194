import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { gql, gqlData, ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { HttpResult, TestServer } from '../support/server.ts';

const T0 = Date.UTC(2025, 0, 1);
let seq = 0;
const datasetUrn = () => `urn:li:dataset:(urn:li:dataPlatform:hive,unknown.p${++seq},PROD)`;
const enc = encodeURIComponent;

/** What a client reads of one dataset and of every index: equal before and after means nothing changed. */
async function readBack(server: TestServer, urn: string): Promise<string> {
  const entity = await server.request('GET', `/entities/${enc(urn)}`);
  const profiles = await server.request('POST', '/aspects?action=getTimeseriesAspectValues', {
    body: { urn, entity: 'dataset', aspect: 'datasetProfile' },
  });
  const sizes = await server.request('POST', '/operations?action=getIndexSizes');
  const tasks = await server.request('GET', '/api/tasks');
  return JSON.stringify([
    entity.status,
    entity.json,
    profiles.json,
    sizes.json.value.indexSizes.map((s: { rowCount: number }) => s.rowCount),
    tasks.json,
  ]);
}

async function seeded(server: TestServer): Promise<string> {
  const urn = datasetUrn();
  await ingest(server, mcp(urn, 'status', { removed: false }), mcp(urn, 'datasetProfile', { timestampMillis: T0, rowCount: 1 }));
  return urn;
}

function assertRefused(res: HttpResult, message: RegExp): void {
  assert.equal(res.status, 400, res.text);
  assert.match(res.json.message, message);
}

function assertGraphqlRefused(res: HttpResult, name: string): void {
  assert.ok(res.json.errors?.length, res.text);
  assert.match(res.json.errors[0].message, new RegExp(name));
  assert.equal(res.json.data?.[Object.keys(res.json.data ?? {})[0] ?? ''] ?? null, null);
}

const DEPRECATION = 'query($urn: String!) { dataset(urn: $urn) { deprecation { deprecated note decommissionTime } } }';

for (const backend of await backends()) {
  describe(`destructive routes refuse parameters they do not take: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => {
      server = s;
    });

    const restCases: Array<[string, (urn: string) => [string, string, unknown], RegExp]> = [
      [
        'truncateTimeseriesAspect with a misspelt dryRun',
        () => [
          'POST',
          '/operations?action=truncateTimeseriesAspect',
          { entityType: 'dataset', aspect: 'datasetProfile', endTimeMillis: T0 + 1, dryrun: false },
        ],
        /Unknown parameter 'dryrun' for action 'truncateTimeseriesAspect'/,
      ],
      [
        'ingestProposal with an extra parameter',
        (urn) => ['POST', '/aspects?action=ingestProposal', { proposal: mcp(urn, 'status', { removed: true }), mode: 'replace' }],
        /Unknown parameter 'mode' for action 'ingestProposal'; it takes proposal, async/,
      ],
      [
        'ingestProposalBatch with an extra query parameter',
        (urn) => ['POST', '/aspects?action=ingestProposalBatch&overwrite=true', { proposals: [mcp(urn, 'status', { removed: true })] }],
        /Unknown parameter 'overwrite' for action 'ingestProposalBatch'/,
      ],
      [
        'entities?action=ingest with an extra parameter',
        (urn) => [
          'POST',
          '/entities?action=ingest',
          {
            entity: {
              value: { 'com.linkedin.metadata.snapshot.DatasetSnapshot': { urn, aspects: [{ 'com.linkedin.common.Status': { removed: true } }] } },
            },
            upsert: false,
          },
        ],
        /Unknown parameter 'upsert' for action 'ingest'/,
      ],
      [
        'OpenAPI DELETE with an aspects filter',
        (urn) => ['DELETE', `/openapi/v3/entity/dataset/${enc(urn)}?aspects=status`, undefined],
        /Unknown query parameter 'aspects'; this route takes none/,
      ],
      [
        'OpenAPI DELETE under another entity type',
        (urn) => ['DELETE', `/openapi/v3/entity/chart/${enc(urn)}`, undefined],
        /is not a chart urn; nothing was deleted/,
      ],
      [
        'OpenAPI POST asking for create-only',
        (urn) => ['POST', '/openapi/v3/entity/dataset?createIfNotExists=true', [{ urn, status: { value: { removed: true } } }]],
        /Query parameter 'createIfNotExists' must be false, got "true"/,
      ],
      [
        'OpenAPI aspect POST with an unknown query parameter',
        (urn) => ['POST', `/openapi/v3/entity/dataset/${enc(urn)}/status?merge=true`, { value: { removed: true } }],
        /Unknown query parameter 'merge'; this route takes async, createIfNotExists/,
      ],
    ];
    for (const [what, build, message] of restCases) {
      it(`refuses ${what}, changing nothing`, async () => {
        const urn = await seeded(server);
        const before = await readBack(server, urn);
        const [method, path, body] = build(urn);
        assertRefused(await server.request(method, path, body === undefined ? {} : { body }), message);
        assert.equal(await readBack(server, urn), before);
      });
    }

    it('refuses a task cancel with a parameter, leaving the task alone', async () => {
      const res = await server.request('POST', '/api/tasks/abc:1/cancel?force=true', { body: {} });
      assertRefused(res, /Unknown query parameter 'force'; this route takes none/);
      assertRefused(await server.request('POST', '/api/tasks/abc:1/cancel', { body: { reason: 'x' } }), /Cancel takes no body/);
    });

    it('refuses GraphQL deprecation mutations with an input field they do not take', async () => {
      const urn = await seeded(server);
      const before = await gqlData(server, DEPRECATION, { urn });
      const single = await gql(server, 'mutation($i: UpdateDeprecationInput!) { updateDeprecation(input: $i) }', {
        i: { urn, deprecated: true, note: 'n', removeHistory: true },
      });
      assertGraphqlRefused(single, 'removeHistory');
      const batch = await gql(server, 'mutation($i: BatchUpdateDeprecationInput!) { batchUpdateDeprecation(input: $i) }', {
        i: { deprecated: true, resources: [{ resourceUrn: urn }], cascade: true },
      });
      assertGraphqlRefused(batch, 'cascade');
      assert.deepEqual(await gqlData(server, DEPRECATION, { urn }), before);
    });

    it('refuses revokeAccessToken with an argument it does not take, and the token still works', async () => {
      const created = (
        await gqlData(server, 'mutation($i: CreateAccessTokenInput!) { createAccessToken(input: $i) { accessToken metadata { id } } }', {
          i: { type: 'PERSONAL', actorUrn: 'urn:li:corpuser:datahub', duration: 'ONE_HOUR', name: 'kept' },
        })
      ).createAccessToken;
      const res = await gql(server, 'mutation($id: String!) { revokeAccessToken(tokenId: $id, everywhere: true) }', { id: created.metadata.id });
      assertGraphqlRefused(res, 'everywhere');
      assert.equal(
        (await server.request('POST', '/entities?action=exists', { body: { urn: 'urn:li:corpuser:datahub' }, auth: `Bearer ${created.accessToken}` }))
          .status,
        200,
      );
    });
  });
}
