import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pkg from '../../package.json' with { type: 'json' };
import { DATAHUB_REGISTRY } from '../../src/catalog/registry/index.ts';
import { clientBackends, storedAspect, useClientScript } from '../support/datahub-client.ts';
import { datasetUrn } from '../support/truncation.ts';

const URN = datasetUrn('sdk.config_openapi');

for (const backend of await clientBackends()) {
  describe(`what DataHub's Python client reads from /config: ${backend.name}`, { skip: backend.skip }, () => {
    const run = useClientScript(backend, 'server_config.py', () => ({ urn: URN }));

    it('sees the DataHub release Almanac implements, and core (not Cloud) features gated on it', () => {
      const [major, minor, patch, build] = DATAHUB_REGISTRY.source.version.split('.').map(Number);
      assert.equal(run.result.serviceVersion, `v${DATAHUB_REGISTRY.source.version}`);
      assert.deepEqual(run.result.parsedVersion, [major, minor, patch, build ?? 0]);
      assert.equal(run.result.commit, `almanac-${pkg.version}`);
      assert.equal(run.result.cloud, false);
    });

    it('answers each feature truthfully: managed ingestion and telemetry off, the rest on', () => {
      assert.equal(run.result.managedIngestion, false);
      assert.deepEqual(run.result.features, {
        openapi_sdk: true,
        api_tracing: true,
        no_code: true,
        stateful_ingestion: true,
        impact_analysis: true,
        patch_capable: true,
        cli_telemetry: false,
        datahub_cloud: false,
        semantic_model_entities: false,
        assertion_note_aspect: true,
      });
    });

    it('takes the OpenAPI ingestion path in SDK client mode, as for DataHub at this release, and the write is stored', async () => {
      assert.equal(run.result.openapiIngestion, true);
      const props = await storedAspect(run.server, URN, 'datasetProperties');
      assert.equal(props?.description, 'written over OpenAPI');
    });
  });
}
