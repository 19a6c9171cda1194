import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { clientBackends, runClientScript, runDatahubCli, storedAspect } from '../support/datahub-client.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

/** A recipe as DataHub's docs write one, the server and token from the environment, the run id fixed so its report can be found. */
const recipe = (runId: string, source: string[], sinkMode?: string, pipelineName?: string) =>
  [
    ...(pipelineName ? [`pipeline_name: ${pipelineName}`] : []),
    `run_id: ${runId}`,
    'source:',
    ...source.map((l) => `  ${l}`),
    'sink:',
    '  type: datahub-rest',
    '  config:',
    '    server: ${DATAHUB_GMS_URL}',
    '    token: ${DATAHUB_GMS_TOKEN}',
    ...(sinkMode ? [`    mode: ${sinkMode}`] : []),
    '',
  ].join('\n');

const schema = (title: string) =>
  JSON.stringify({ $id: `https://example.com/${title}.json`, title, type: 'object', properties: { id: { type: 'integer' } } });
const schemaUrn = (title: string) => `urn:li:dataset:(urn:li:dataPlatform:schemaregistry,/example.com/${title},PROD)`;

for (const backend of await clientBackends()) {
  describe(`datahub ingest pipelines: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    let dir: string;
    useServer(backend, (s) => {
      server = s;
    });
    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-datahub-ingest-'));
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const write = (name: string, content: string) => {
      const p = path.join(dir, name);
      fs.writeFileSync(p, content);
      return p;
    };

    for (const mode of ['SYNC', 'ASYNC', 'ASYNC_BATCH']) {
      it(`ingests SDK-built metadata through the datahub-rest sink in ${mode} mode with its run report, and every proposal reads back identical`, async () => {
        const file = path.join(dir, `${mode}.json`);
        const made = await runClientScript<{ urns: string[]; proposals: number }>(server, 'sdk_metadata.py', { file, prefix: mode.toLowerCase() });
        const runId = `almanac-${mode.toLowerCase()}-run`;
        const res = await runDatahubCli(
          server,
          'ingest',
          '-c',
          write(`${mode}.yml`, recipe(runId, ['type: file', 'config:', `  path: ${file}`], mode)),
        );
        // The file source adds a status aspect per entity (its AutoStatusAspectProcessor), so more events go out than the file holds.
        assert.match(res.stdout, /Pipeline finished successfully; produced \d+ events/);
        assert.match(res.stdout, /'failures': \[\]/);

        const readback = await runClientScript<{ checked: number; differ: unknown[] }>(server, 'sdk_readback.py', { file });
        assert.deepEqual(readback, { checked: made.proposals, differ: [] });

        // The run report every `datahub ingest` writes: the request at start, the result at the end.
        const request = `urn:li:dataHubExecutionRequest:${runId}`;
        assert.equal((await storedAspect(server, request, 'dataHubExecutionRequestInput'))?.task, 'CLI Ingestion');
        const result = await storedAspect(server, request, 'dataHubExecutionRequestResult');
        assert.equal(result?.status, 'SUCCESS');
        assert.match(String(result?.report), /Ingestion Report/);
      });
    }

    it('runs a stateful ingestion twice: the second run soft-deletes what disappeared and keeps the rest', async () => {
      const schemas = path.join(dir, 'schemas');
      fs.mkdirSync(schemas);
      for (const title of ['orders', 'users']) fs.writeFileSync(path.join(schemas, `${title}.json`), schema(title));
      const source = [
        'type: json-schema',
        'config:',
        `  path: ${schemas}`,
        '  platform: schemaregistry',
        '  stateful_ingestion:',
        '    enabled: true',
        '    remove_stale_metadata: true',
      ];
      const config = write('stateful.yml', recipe('almanac-stateful-1', source, undefined, 'almanac_stateful'));
      await runDatahubCli(server, 'ingest', '-c', config);
      assert.deepEqual(await storedAspect(server, schemaUrn('users'), 'status'), { removed: false });

      fs.rmSync(path.join(schemas, 'users.json'));
      const second = await runDatahubCli(
        server,
        'ingest',
        '-c',
        write('stateful2.yml', recipe('almanac-stateful-2', source, undefined, 'almanac_stateful')),
      );
      assert.match(second.stdout, /soft_deleted_stale_entities.*users/s);
      assert.deepEqual(await storedAspect(server, schemaUrn('users'), 'status'), { removed: true });
      assert.notDeepEqual(await storedAspect(server, schemaUrn('orders'), 'status'), { removed: true });
      assert.ok(await storedAspect(server, schemaUrn('users'), 'schemaMetadata'), 'a soft delete keeps the aspects');
    });
  });
}
