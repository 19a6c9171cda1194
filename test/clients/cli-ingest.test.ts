import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { clientBackends, runDatahubCli, storedAspect } from '../support/datahub-client.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';
import { datasetUrn, storedStamps } from '../support/truncation.ts';

/** A recipe as DataHub's docs write one: the file source into the REST sink, the server and token from the environment. */
const recipe = (file: string) =>
  [
    'source:',
    '  type: file',
    '  config:',
    `    path: ${file}`,
    'sink:',
    '  type: datahub-rest',
    '  config:',
    '    server: ${DATAHUB_GMS_URL}',
    '    token: ${DATAHUB_GMS_TOKEN}',
    '',
  ].join('\n');

for (const backend of await clientBackends()) {
  describe(`DataHub CLI ingestion: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    let dir: string;
    const file = (name: string, content: string) => {
      const p = path.join(dir, name);
      fs.writeFileSync(p, content);
      return p;
    };
    useServer(backend, (s) => {
      server = s;
    });
    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-datahub-cli-'));
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('writes an aspect from a file with `datahub put`', async () => {
      const urn = datasetUrn('cli.put');
      const res = await runDatahubCli(
        server,
        'put',
        '--urn',
        urn,
        '--aspect',
        'datasetProperties',
        '-d',
        file('props.json', '{"name": "put", "description": "From the CLI"}'),
      );
      assert.match(res.stdout, /Update succeeded with status 200/);
      assert.deepEqual(await storedAspect(server, urn, 'datasetProperties'), { name: 'put', description: 'From the CLI' });
    });

    it('creates a data platform with `datahub put platform`', async () => {
      const res = await runDatahubCli(
        server,
        'put',
        'platform',
        '--name',
        'lakehouse',
        '--display_name',
        'Lakehouse',
        '--logo',
        'https://example.com/lakehouse.png',
      );
      assert.match(res.stdout, /Successfully wrote data platform metadata for urn:li:dataPlatform:lakehouse/);
      const info = await storedAspect(server, 'urn:li:dataPlatform:lakehouse', 'dataPlatformInfo');
      assert.equal(info?.displayName, 'Lakehouse');
      assert.equal(info?.logoUrl, 'https://example.com/lakehouse.png');
    });

    it('ingests a file of MCPs and MCEs with `datahub ingest` (file source, datahub-rest sink, no run report)', async () => {
      const [a, b] = [datasetUrn('cli.ingest_a'), datasetUrn('cli.ingest_b')];
      const items = [
        {
          entityType: 'dataset',
          entityUrn: a,
          changeType: 'UPSERT',
          aspectName: 'datasetProperties',
          aspect: { json: { name: 'ingested', description: 'From a file' } },
        },
        {
          proposedSnapshot: {
            'com.linkedin.pegasus2avro.metadata.snapshot.DatasetSnapshot': {
              urn: b,
              aspects: [{ 'com.linkedin.pegasus2avro.common.Status': { removed: false } }],
            },
          },
        },
        {
          entityType: 'dataset',
          entityUrn: a,
          changeType: 'UPSERT',
          aspectName: 'datasetProfile',
          aspect: { json: { timestampMillis: 1767225600000, rowCount: 5 } },
        },
      ];
      const res = await runDatahubCli(
        server,
        'ingest',
        '-c',
        file('recipe.yml', recipe(file('mcps.json', JSON.stringify(items)))),
        '--no-default-report',
      );
      assert.match(res.stdout, /Pipeline finished successfully; produced 3 events/);
      assert.equal((await storedAspect(server, a, 'datasetProperties'))?.description, 'From a file');
      assert.deepEqual(await storedAspect(server, b, 'status'), { removed: false });
      assert.deepEqual(await storedStamps(server.request, a), [1767225600000]);
    });
  });
}
