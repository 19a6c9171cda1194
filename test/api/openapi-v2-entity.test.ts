import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const request = (id: string) => `urn:li:dataHubExecutionRequest:${id}`;
const input = (requestedAt: number) => ({
  task: 'CLI Ingestion',
  args: {},
  executorId: '__datahub_cli_',
  source: { type: 'CLI_INGESTION_SOURCE', ingestionSource: 'urn:li:dataHubIngestionSource:cli-1' },
  requestedAt,
});
// What datahub-gc's execution request cleanup asks for, page after page.
const SCROLL =
  '/openapi/v2/entity/dataHubExecutionRequest?aspectNames=dataHubExecutionRequestKey&aspectNames=dataHubExecutionRequestInput&aspectNames=dataHubExecutionRequestResult&count=2&sort=requestTimeMs&sortOrder=DESCENDING&systemMetadata=false&skipCache=true';

for (const backend of await backends()) {
  describe(`OpenAPI v2 entity scroll and get: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      await ingest(
        server,
        ...[
          ['a', 300],
          ['b', 100],
          ['c', 200],
        ].map(([id, at]) => mcp(request(id as string), 'dataHubExecutionRequestInput', input(at as number), 'dataHubExecutionRequest')),
        mcp(request('a'), 'dataHubExecutionRequestResult', { status: 'SUCCESS', startTimeMs: 300, durationMs: 5 }, 'dataHubExecutionRequest'),
      );
    });

    it('scrolls newest request first with the aspects asked for, and stops giving a scrollId at the end', async () => {
      const first = await server.request('GET', SCROLL);
      assert.equal(first.status, 200, first.text);
      assert.deepEqual(
        first.json.results.map((r: { urn: string }) => r.urn),
        [request('a'), request('c')],
      );
      assert.deepEqual(first.json.results[0].aspects, {
        dataHubExecutionRequestKey: { value: { id: 'a' } },
        dataHubExecutionRequestInput: { value: input(300) },
        dataHubExecutionRequestResult: { value: { status: 'SUCCESS', startTimeMs: 300, durationMs: 5 } },
      });
      assert.ok(first.json.scrollId);
      const second = await server.request('GET', `${SCROLL}&scrollId=${encodeURIComponent(first.json.scrollId)}`);
      assert.deepEqual(second.json, {
        results: [
          { urn: request('b'), aspects: { dataHubExecutionRequestKey: { value: { id: 'b' } }, dataHubExecutionRequestInput: { value: input(100) } } },
        ],
      });
    });

    it('gets one entity with its system metadata when asked, and 404 for one that does not exist', async () => {
      const one = await server.request(
        'GET',
        `/openapi/v2/entity/dataHubExecutionRequest/${encodeURIComponent(request('b'))}?aspectNames=dataHubExecutionRequestInput&systemMetadata=true`,
      );
      assert.equal(one.status, 200, one.text);
      assert.deepEqual(Object.keys(one.json.aspects.dataHubExecutionRequestInput), ['value', 'systemMetadata']);
      assert.equal((await server.request('GET', `/openapi/v2/entity/dataHubExecutionRequest/${encodeURIComponent(request('z'))}`)).status, 404);
    });

    it('refuses parameters it does not take and aspects the entity does not have', async () => {
      for (const [path, message] of [
        [`${SCROLL}&sortorder=ASCENDING`, /Unknown query parameter 'sortorder'/],
        ['/openapi/v2/entity/dataHubExecutionRequest?aspectNames=status', /dataHubExecutionRequest has no aspect status/],
        ['/openapi/v2/entity/dataHubExecutionRequest?count=-1', /'count' must be an integer/],
      ] as const) {
        const res = await server.request('GET', path);
        assert.equal(res.status, 400, res.text);
        assert.match(res.json.message, message);
      }
    });
  });
}
