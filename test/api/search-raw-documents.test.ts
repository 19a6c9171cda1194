import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { backends } from '../support/databases.ts';
import { ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

// DataHub's raw search documents, as its smoke test tests/search/test_lineage_search_index_fields reads them.
const RAW = '/openapi/operations/elasticSearch/entity/raw';
const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,raw.${name},PROD)`;
const UP = ds('upstream');
const DOWN = ds('downstream');
const ALONE = ds('alone');

for (const backend of await backends()) {
  describe(`raw search documents: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      await ingest(
        s,
        mcp(UP, 'datasetProperties', { name: 'upstream_table', customProperties: { env: 'PROD' } }),
        mcp(DOWN, 'datasetProperties', { name: 'downstream_table', description: 'made from the upstream' }),
        mcp(DOWN, 'upstreamLineage', {
          upstreams: [{ dataset: UP, type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:datahub' } }],
        }),
        mcp(DOWN, 'globalTags', { tags: [{ tag: 'urn:li:tag:gold' }, { tag: 'urn:li:tag:pii' }] }),
        mcp(ALONE, 'status', { removed: false }),
      );
    });

    it('answers each indexed urn its document: flags as booleans, one value as itself, several as a list', async () => {
      const res = await server.request('POST', RAW, { body: [DOWN, UP, ALONE, ds('never-written')] });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.json).sort(), [ALONE, DOWN, UP].sort());
      const down = res.json[DOWN];
      assert.equal(down.urn, DOWN);
      assert.equal(down.hasUpstreams, true);
      assert.equal(down.name, 'downstream_table');
      assert.deepEqual(down.tags, ['urn:li:tag:gold', 'urn:li:tag:pii']);
      assert.equal(res.json[UP].hasUpstreams, undefined);
      assert.equal(res.json[UP].customProperties, 'env=PROD');
      assert.equal(res.json[ALONE].removed, false);
    });

    it('refuses a body that is not a list of urns, and a caller without MANAGE_SYSTEM_OPERATIONS', async () => {
      const bad = await server.request('POST', RAW, { body: { urns: [DOWN] } });
      assert.equal(bad.status, 400, bad.text);
      const notUrn = await server.request('POST', RAW, { body: ['not-an-urn'] });
      assert.equal(notUrn.status, 400, notUrn.text);
      const reader = await actorWithRole(server, 'raw-reader', 'Reader');
      const refused = await server.request('POST', RAW, { body: [DOWN], auth: reader });
      assert.equal(refused.status, 403, refused.text);
    });
  });
}
