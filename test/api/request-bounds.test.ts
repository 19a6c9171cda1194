import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { gql, ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { HttpResult, TestServer } from '../support/server.ts';

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const enc = encodeURIComponent;
/** `levels` nested objects, written by hand: JSON.stringify itself overflows long before the attacks' depths. */
const nested = (levels: number) => '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);
const rawMcp = (urn: string, aspectName: string, valueJson: string, entityType = 'dataset') => ({
  entityType,
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName,
  aspect: { contentType: 'application/json', value: valueJson },
});

function assertRestliError(res: HttpResult, status: number, message: RegExp): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.json?.exceptionClass, 'com.linkedin.restli.server.RestLiServiceException', res.text);
  assert.equal(res.json.status, status);
  assert.match(res.json.message, message);
}

/** Sends raw bytes and returns the server's whole answer (it closes the connection after an HTTP-level error). */
function rawExchange(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(bytes));
    let response = '';
    socket.on('data', (d) => (response += d.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(response));
  });
}

const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));

for (const backend of await backends()) {
  describe(`bounded request shapes: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(
      backend,
      (s) => {
        server = s;
      },
      { ALMANAC_MAX_WRITES_PER_REQUEST: '5', ALMANAC_MAX_BODY_BYTES: '65536' },
    );

    it('refuses an aspect nested deeper than 1000 levels with 400 naming the field, and stores one at the limit', async () => {
      const deep = await server.request('POST', '/aspects?action=ingestProposal', {
        body: { proposal: rawMcp(ds('deep'), 'editableDatasetProperties', `{"description":"d","x":${nested(4200)}}`) },
      });
      assertRestliError(deep, 400, /^Parameter 'proposal\.aspect\.value' nests objects and arrays deeper than 1000 levels$/);
      assert.equal((await server.request('GET', `/entities/${enc(ds('deep'))}`)).status, 404, 'nothing was stored');

      const atLimit = await server.request('POST', '/aspects?action=ingestProposal', {
        body: { proposal: rawMcp(ds('deep'), 'editableDatasetProperties', `{"description":"d","x":${nested(999)}}`) },
      });
      assert.equal(atLimit.status, 200, atLimit.text);
      const read = await server.request('GET', `/aspects/${enc(ds('deep'))}?aspect=editableDatasetProperties&version=0`);
      assert.equal(read.status, 200, read.text);
    });

    it('refuses a body nested deeper than 1000 levels before reading its fields', async () => {
      const res = await server.request('POST', '/openapi/v3/entity/dataset', {
        rawBody: `[${nested(5000)}]`,
        headers: { 'Content-Type': 'application/json' },
      });
      assertRestliError(res, 400, /^Request body nests objects and arrays deeper than 1000 levels$/);
    });

    it('refuses a 5,000-level GraphQL query as a bad request, not a crash, while /health answers', async () => {
      const attack = gql(server, `{ ${'a { '.repeat(5000)}b${' }'.repeat(5000)} }`);
      assert.equal((await fetch(`${server.url}/health`)).status, 200);
      const res = await attack;
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json.errors?.[0]?.extensions, { code: 400, type: 'BAD_REQUEST' }, res.text);
      assert.match(res.json.errors[0].message, /deeper than 200 levels/);
      const lists = await gql(server, `{ dataset(urn: ${'['.repeat(5000)}"x"${']'.repeat(5000)}) { urn } }`);
      assert.deepEqual(lists.json.errors?.[0]?.extensions, { code: 400, type: 'BAD_REQUEST' }, lists.text);
    });

    it('bounds schemaField urns the same way on every backend', async () => {
      const field = (n: number) => `urn:li:schemaField:(${ds('sf')},${'f'.repeat(n)})`;
      const base = field(0).length;
      const tooLong = await server.request('POST', '/aspects?action=ingestProposal', {
        body: { proposal: rawMcp(field(601 - base), 'status', '{"removed":false}', 'schemaField') },
      });
      assertRestliError(tooLong, 400, /^Error: cannot provide a schemaField URN longer than 600 bytes \(UTF-8\)$/);
      const huge = await server.request('POST', '/aspects?action=ingestProposal', {
        body: { proposal: rawMcp(field(60_000), 'status', '{"removed":false}', 'schemaField') },
      });
      assertRestliError(huge, 400, /longer than 600 bytes/);
      const atLimit = await server.request('POST', '/aspects?action=ingestProposal', {
        body: { proposal: rawMcp(field(600 - base), 'status', '{"removed":false}', 'schemaField') },
      });
      assert.equal(atLimit.status, 200, atLimit.text);
      assert.equal((await server.request('GET', `/entities/${enc(field(600 - base))}`)).status, 200, 'read back by path');
    });

    it('indexes column lineage between the longest schemaField urns, and skips referenced urns longer than any stored one', async () => {
      // Random text does not compress: the index entry is as large as it can be.
      const noise = (n: number) => Array.from({ length: n }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(Math.random() * 36)]).join('');
      const up = ds('up');
      const down = ds('down');
      const fieldUrn = (dataset: string, fill: number) =>
        `urn:li:schemaField:(${dataset},${noise(fill - `urn:li:schemaField:(${dataset},)`.length)})`;
      const upstreams = [fieldUrn(up, 600), `urn:li:schemaField:(${up},${noise(5000)})`];
      const lineage = {
        upstreams: [{ dataset: up, type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:x' } }],
        fineGrainedLineages: [
          { upstreamType: 'FIELD_SET', downstreamType: 'FIELD', upstreams, downstreams: [fieldUrn(down, 600)], query: `urn:li:query:${noise(480)}` },
        ],
      };
      const res = await server.request('POST', '/aspects?action=ingestProposal', { body: { proposal: mcp(down, 'upstreamLineage', lineage) } });
      assert.equal(res.status, 200, res.text);
      const related = await server.request(
        'GET',
        `/relationships?urn=${enc(lineage.fineGrainedLineages[0]!.downstreams[0]!)}&types=List(DownstreamOf)&direction=OUTGOING`,
      );
      assert.equal(related.status, 200, related.text);
      assert.deepEqual(
        related.json.relationships.map((r: { entity: string }) => r.entity),
        [upstreams[0]],
      );
    });

    it('reads a dataset urn near the 512-byte limit by path on every by-path route', async () => {
      const name = `warehouse.${'segment_'.repeat(50)}`.slice(0, 460);
      const urn = ds(name);
      await ingest(server, mcp(urn, 'status', { removed: false }));
      assert.ok(enc(urn).length > 400, "far past Fastify's default of 100");
      for (const path of [
        `/entities/${enc(urn)}`,
        `/aspects/${enc(urn)}?aspect=status&version=0`,
        `/openapi/v3/entity/dataset/${enc(urn)}`,
        `/api/gms/entitiesV2/${enc(urn)}`,
      ]) {
        const res = await server.request('GET', path);
        assert.equal(res.status, 200, `${path}: ${res.text}`);
      }
    });

    it('refuses a batch writing more versions than ALMANAC_MAX_WRITES_PER_REQUEST, writing none of it', async () => {
      const proposals = Array.from({ length: 6 }, (_, i) => mcp(ds(`cap${i}`), 'status', { removed: false }));
      const res = await server.request('POST', '/aspects?action=ingestProposalBatch', { body: { proposals } });
      assertRestliError(
        res,
        400,
        /^Parameter 'proposals': this request would write 6 aspect versions, more than the 5 one request may write \(ALMANAC_MAX_WRITES_PER_REQUEST\)/,
      );
      for (let i = 0; i < 6; i++) assert.equal((await server.request('GET', `/entities/${enc(ds(`cap${i}`))}`)).status, 404);
      await ingest(server, ...proposals.slice(0, 5));
    });

    it('counts aliased batchUpdateDeprecation calls together: the one past the cap writes nothing', async () => {
      const urns = [0, 1, 2, 3, 4, 5].map((i) => ds(`dep${i}`));
      await ingest(server, ...urns.slice(0, 5).map((u) => mcp(u, 'status', { removed: false })));
      await ingest(server, mcp(urns[5]!, 'status', { removed: false }));
      const batch = (alias: string, list: string[]) =>
        `${alias}: batchUpdateDeprecation(input: {deprecated: true, note: "old", resources: [${list.map((u) => `{resourceUrn: "${u}"}`).join(', ')}]})`;
      const res = await gql(server, `mutation { ${batch('a', urns.slice(0, 2))} ${batch('b', urns.slice(2, 4))} ${batch('c', urns.slice(4, 6))} }`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json.data, { a: true, b: true, c: null });
      assert.deepEqual(
        res.json.errors.map((e: { path: string[] }) => e.path),
        [['c']],
      );
      assert.match(res.json.errors[0].message, /'input\.resources': this request would write 6 aspect versions, more than the 5/);
      for (const [i, u] of urns.entries()) {
        const read = await gql(server, `{ dataset(urn: "${u}") { deprecation { deprecated } } }`);
        assert.equal(read.json.data.dataset.deprecation?.deprecated ?? false, i < 4, u);
      }
    });

    it('refuses requestsPerSecond too small to throttle, naming the field, and starts no task', async () => {
      const res = await server.request('POST', '/operations?action=truncateTimeseriesAspect', {
        body: { entityType: 'dataset', aspect: 'datasetProfile', endTimeMillis: 1, dryRun: false, requestsPerSecond: 1e-9 },
      });
      assertRestliError(res, 400, /^Parameter 'requestsPerSecond' must be a number from 0\.01 to 1000000, got 1e-9$/);
      const tasks = await server.request('GET', '/api/tasks');
      assert.equal(tasks.status, 200, tasks.text);
      assert.equal(JSON.stringify(tasks.json).includes('truncate'), false, tasks.text);
    });
  });

  describe(`every framework-level error in Rest.li shape: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(
      backend,
      (s) => {
        server = s;
      },
      { ALMANAC_MAX_BODY_BYTES: '4096' },
    );

    it('answers an unknown route, bad JSON and a body too large in Rest.li shape', async () => {
      assertRestliError(await server.request('GET', '/no/such/route'), 404, /^No resource for GET \/no\/such\/route$/);
      assertRestliError(await server.request('POST', '/aspects?action=ingestProposal', { rawBody: '{"proposal":' }), 400, /not valid JSON/);
      assertRestliError(await server.request('POST', '/aspects?action=ingestProposal', { rawBody: `"${'x'.repeat(8000)}"` }), 413, /too large/);
    });

    it('answers a path segment past any urn with 414 and a bad percent-encoding with 400', async () => {
      assertRestliError(await server.request('GET', `/entities/${enc(ds('y'.repeat(9000)))}`), 414, /longer than any urn/);
      assertRestliError(await server.request('GET', '/entities/%E0%A4%A'), 400, /not a valid URL/);
    });

    it('answers headers too large with 431 and a malformed request with 400, both in Rest.li shape', async () => {
      const big = await rawExchange(server.url, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'z'.repeat(20_000)}\r\n\r\n`);
      assert.match(big, /^HTTP\/1\.1 431 /);
      assert.deepEqual(bodyOf(big), {
        exceptionClass: 'com.linkedin.restli.server.RestLiServiceException',
        message: 'The request headers are too large',
        status: 431,
      });
      const garbage = await rawExchange(server.url, 'NOT HTTP AT ALL\r\n\r\n');
      assert.match(garbage, /^HTTP\/1\.1 400 /);
      assert.equal(bodyOf(garbage).exceptionClass, 'com.linkedin.restli.server.RestLiServiceException');
    });
  });
}
