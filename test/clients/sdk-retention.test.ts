import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientBackends, runDatahubCli, useClientScript } from '../support/datahub-client.ts';
import { datasetUrn } from '../support/truncation.ts';

const URN = datasetUrn('sdk.retained');

for (const backend of await clientBackends()) {
  describe(`retention under DataHub's real client: ${backend.name}`, { skip: backend.skip }, () => {
    const run = useClientScript(backend, 'sdk_retention.py', async (server) => {
      const res = await server.request('POST', '/api/retention', {
        body: { entity: 'dataset', aspect: 'schemaMetadata', config: { retention: { version: { maxVersions: 2 } } } },
      });
      assert.equal(res.status, 200, res.text);
      return { urn: URN };
    });

    it('keeps the latest of what the emitter wrote, as DataHubGraph reads it', () => {
      assert.deepEqual(run.result.latest, ['f0', 'f1', 'f2', 'f3', 'f4']);
    });

    it('keeps two versions of the five, so `datahub timeline` shows the change between the last two only', async () => {
      const out = (await runDatahubCli(run.server, 'timeline', '--urn', URN, '--category', 'TECHNICAL_SCHEMA')).stdout;
      const versions = out.split('\n').filter((l) => / - \d+\.\d+\.\d+-computed$/.test(l));
      assert.equal(versions.length, 2, out);
      assert.match(out, /ADD TECHNICAL_SCHEMA dataset:hive:sdk\.retained \(field:f4\)/);
      assert.doesNotMatch(out, /field:f0\).*\n(.|\n)*field:f0\)/, 'f0 is added once, by the oldest version kept');
      const versionsStored = await run.server.app.services.store.aspects.getAspectHistory(URN, 'schemaMetadata', 100);
      assert.equal(versionsStored.length, 2);
    });
  });
}
