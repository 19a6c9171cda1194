import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,v2.users/with space,PROD)';
const MISSING = 'urn:li:dataset:(urn:li:dataPlatform:hive,v2.never,PROD)';
/** As acryl-datahub's Urn.url_encode: every reserved character percent-encoded. */
const encode = (urn: string) => encodeURIComponent(urn).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

for (const backend of await backends()) {
  describe(`entitiesV2: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      await ingest(server, mcp(URN, 'status', { removed: false }), mcp(URN, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }));
    });

    it("answers DataHub's EntityResponse with every latest aspect enveloped", async () => {
      const res = await server.request('GET', `/entitiesV2/${encode(URN)}`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.entityName, 'dataset');
      assert.equal(res.json.urn, URN);
      assert.deepEqual(Object.keys(res.json.aspects).sort(), ['datasetKey', 'globalTags', 'status']);
      const tags = res.json.aspects.globalTags;
      assert.deepEqual(
        { ...tags, created: undefined, systemMetadata: undefined },
        {
          name: 'globalTags',
          type: 'VERSIONED',
          version: 0,
          value: { tags: [{ tag: 'urn:li:tag:pii' }] },
          created: undefined,
          systemMetadata: undefined,
        },
      );
      assert.equal(tags.created.actor, 'urn:li:corpuser:datahub');
      assert.equal(tags.systemMetadata.runId, 'no-run-id-provided');
    });

    it('projects the named aspects, always with the key, leaving unknown names out', async () => {
      const res = await server.request('GET', `/api/gms/entitiesV2/${encode(URN)}?aspects=List(status,nope)`);
      assert.deepEqual(Object.keys(res.json.aspects).sort(), ['datasetKey', 'status']);
    });

    it('answers a never-written entity with its key aspect built from the urn, as DataHub does', async () => {
      const res = await server.request('GET', `/entitiesV2/${encode(MISSING)}`);
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.json.aspects), ['datasetKey']);
      assert.deepEqual(res.json.aspects.datasetKey.value, { platform: 'urn:li:dataPlatform:hive', name: 'v2.never', origin: 'PROD' });
      assert.equal(res.json.aspects.datasetKey.created.actor, 'urn:li:corpuser:__datahub_system');
    });

    it('batch-gets urns whose commas are percent-encoded inside List(...)', async () => {
      const res = await server.request('GET', `/entitiesV2?ids=List(${encode(URN)},${encode(MISSING)})`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.json.results), [URN, MISSING]);
      assert.deepEqual(res.json.statuses, {});
      assert.ok(res.json.results[URN].aspects.globalTags);
    });

    it('refuses a malformed urn with 400 naming it', async () => {
      const res = await server.request('GET', `/entitiesV2/${encodeURIComponent('urn:li:dataset:(nope')}`);
      assert.equal(res.status, 400);
    });
  });
}
