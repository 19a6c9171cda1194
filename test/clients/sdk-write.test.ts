import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientBackends, storedAspect, useClientScript } from '../support/datahub-client.ts';
import { DAY, datasetUrn, storedStamps } from '../support/truncation.ts';

const URNS = {
  mcp: datasetUrn('sdk.orders'),
  async: datasetUrn('sdk.async'),
  mce: datasetUrn('sdk.snapshot'),
  openapi: datasetUrn('sdk.openapi'),
  profiledFirst: datasetUrn('sdk.profiled_first'),
  patched: datasetUrn('sdk.patched'),
  openapiPatched: datasetUrn('sdk.openapi_patched'),
};
const UPSTREAM = datasetUrn('sdk.upstream');
const NOW = Date.now();
const PROFILE_TIMES = [NOW - 2 * DAY, NOW - DAY, NOW];

for (const backend of await clientBackends()) {
  describe(`DataHub Python SDK writes: ${backend.name}`, { skip: backend.skip }, () => {
    const run = useClientScript(backend, 'sdk_write.py', () => ({ urns: URNS, profileTimes: PROFILE_TIMES, upstream: UPSTREAM }));

    it('connects with DatahubRestEmitter.test_connection, which reads /config', () => {
      assert.equal(run.result.noCode, 'true');
    });

    it('stores what emit_mcp and emit send', async () => {
      assert.deepEqual(await storedAspect(run.server, URNS.mcp, 'datasetProperties'), {
        name: 'orders',
        description: 'One row per order',
        customProperties: {},
        tags: [],
      });
      assert.deepEqual(await storedAspect(run.server, URNS.mcp, 'status'), { removed: false });
    });

    it('stores a versioned aspect and timeseries events sent in one emit_mcps batch', async () => {
      const ownership = await storedAspect(run.server, URNS.mcp, 'ownership');
      assert.deepEqual(ownership?.owners, [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }]);
      assert.deepEqual(await storedStamps(run.server.request, URNS.mcp), PROFILE_TIMES);
    });

    it('stores an emit_mcp sent with EmitMode.ASYNC before answering', async () => {
      assert.equal((await storedAspect(run.server, URNS.async, 'datasetProperties'))?.name, 'async');
    });

    it('stores every aspect of an emit_mce snapshot', async () => {
      const res = await run.server.request('GET', `/entities/${encodeURIComponent(URNS.mce)}`);
      assert.equal(res.status, 200, res.text);
      const aspects: Array<Record<string, unknown>> = res.json.value['com.linkedin.metadata.snapshot.DatasetSnapshot'].aspects;
      assert.deepEqual(Object.assign({}, ...aspects), {
        'com.linkedin.metadata.key.DatasetKey': { platform: 'urn:li:dataPlatform:hive', name: 'sdk.snapshot', origin: 'PROD' },
        'com.linkedin.common.Status': { removed: false },
        'com.linkedin.dataset.DatasetProperties': { customProperties: { team: 'core' }, name: 'snapshot', tags: [] },
      });
    });

    it('stores what the emitter sends in OpenAPI mode (emit_mcp and emit_mcps)', async () => {
      assert.deepEqual(await storedAspect(run.server, URNS.openapi, 'status'), { removed: false });
      assert.equal((await storedAspect(run.server, URNS.openapi, 'datasetProperties'))?.name, 'openapi');
    });

    it('stores a profile for a dataset that has nothing else yet, which then exists', async () => {
      assert.deepEqual(await storedStamps(run.server.request, URNS.profiledFirst), [PROFILE_TIMES[0]]);
      assert.deepEqual((await run.server.request('POST', '/entities?action=exists', { body: { urn: URNS.profiledFirst } })).json, { value: true });
    });

    it("raises OperationalError carrying the server's message for an aspect DataHub does not know", () => {
      assert.equal(run.result.unknownAspect.info.status, 400);
      assert.match(run.result.unknownAspect.message, /^Unable to emit metadata to DataHub GMS: Unknown aspect noSuchAspect for entity dataset/);
    });

    for (const [mode, urn] of [
      ['Rest.li', URNS.patched],
      ['OpenAPI', URNS.openapiPatched],
    ] as const) {
      it(`applies DatasetPatchBuilder's patches sent in ${mode} mode to the latest versions`, async () => {
        const tags = (await storedAspect(run.server, urn, 'globalTags'))?.tags;
        assert.deepEqual(tags, mode === 'Rest.li' ? [{ tag: 'urn:li:tag:gold' }] : [{ tag: 'urn:li:tag:pii' }]);
        assert.deepEqual((await storedAspect(run.server, urn, 'glossaryTerms'))?.terms, [{ urn: 'urn:li:glossaryTerm:revenue' }]);
        assert.deepEqual((await storedAspect(run.server, urn, 'ownership'))?.owners, [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }]);
        const upstreams = (await storedAspect(run.server, urn, 'upstreamLineage'))?.upstreams as Array<Record<string, unknown>>;
        assert.deepEqual(
          upstreams.map((u) => [u.dataset, u.type]),
          [[UPSTREAM, 'TRANSFORMED']],
        );
        const properties = await storedAspect(run.server, urn, 'datasetProperties');
        assert.deepEqual([properties?.customProperties, properties?.description], [{ 'team/owner': 'core' }, 'Patched by the SDK']);
      });
    }
  });
}
