import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { clientBackends, runDatahubCli, storedAspect } from '../support/datahub-client.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

// `datahub ingest` of two files under fixed run ids, then `datahub ingest list-runs`, `show`, `rollback --dry-run`,
// `rollback` and `rollback --nuke`, all with the real acryl-datahub CLI.

const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,rollback.${name},PROD)`;
const [A, B, C] = [dataset('orders'), dataset('users'), dataset('refunds')];
const RUN1 = 'almanac-rollback-1';
const RUN2 = 'almanac-rollback-2';

/** A proposal as the `file` source reads it (the SDK's own JSON form). */
const mcp = (urn: string, aspectName: string, json: unknown) => ({
  entityType: 'dataset',
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName,
  aspect: { json },
});
const owner = { owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }] };

const RUN1_FILE = [
  mcp(A, 'datasetProperties', { name: 'orders', description: 'every order', customProperties: { tier: 'gold' }, tags: [] }),
  mcp(A, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }),
  mcp(B, 'datasetProperties', { name: 'users', customProperties: {}, tags: [] }),
];
/** Changes a's properties, adds an owner to it, sends a's tags and b unchanged, and creates c. */
const RUN2_FILE = [
  mcp(A, 'datasetProperties', { name: 'orders', description: 'a bad description', customProperties: { tier: 'bronze' }, tags: [] }),
  mcp(A, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }),
  mcp(A, 'ownership', owner),
  mcp(B, 'datasetProperties', { name: 'users', customProperties: {}, tags: [] }),
  mcp(C, 'datasetProperties', { name: 'refunds', customProperties: {}, tags: [] }),
];

const recipe = (runId: string, file: string) =>
  [
    `run_id: ${runId}`,
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

/** Every version of every aspect these tests touch, as GET /aspects answers (value, created stamp, systemMetadata). */
async function stored(server: TestServer, urns: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const urn of urns) {
    for (const aspect of ['datasetKey', 'status', 'datasetProperties', 'globalTags', 'ownership']) {
      for (const version of [0, 1, 2]) {
        const res = await server.request('GET', `/aspects/${encodeURIComponent(urn)}?aspect=${aspect}&version=${version}`);
        out.push(`${urn} ${aspect} ${version} ${res.status} ${res.status === 200 ? res.text : ''}`);
      }
    }
  }
  return out;
}

for (const backend of await clientBackends()) {
  describe(`datahub ingest rollback: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    let dir: string;
    let afterRun1: string[];
    let afterRun2: string[];
    useServer(backend, (s) => {
      server = s;
    });
    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-datahub-rollback-'));
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    const ingestFile = async (runId: string, proposals: unknown[]) => {
      const file = path.join(dir, `${runId}.json`);
      fs.writeFileSync(file, JSON.stringify(proposals));
      const config = path.join(dir, `${runId}.yml`);
      fs.writeFileSync(config, recipe(runId, file));
      const res = await runDatahubCli(server, 'ingest', '-c', config);
      assert.match(res.stdout, /'failures': \[\]/);
    };
    const rollback = (...args: string[]) =>
      runDatahubCli(server, 'ingest', 'rollback', '--run-id', RUN2, '--report-dir', path.join(dir, 'reports'), ...args);

    it('ingests two runs of a file, the second changing some aspects and creating an entity', async () => {
      await ingestFile(RUN1, RUN1_FILE);
      afterRun1 = await stored(server, [A, B, C]);
      await ingestFile(RUN2, RUN2_FILE);
      afterRun2 = await stored(server, [A, B, C]);
      assert.equal((await storedAspect(server, A, 'datasetProperties'))?.description, 'a bad description');
      assert.deepEqual((await storedAspect(server, A, 'ownership'))?.owners, owner.owners);
      assert.equal((await storedAspect(server, C, 'datasetProperties'))?.name, 'refunds');
    });

    it('lists both runs with `datahub ingest list-runs`', async () => {
      const res = await runDatahubCli(server, 'ingest', 'list-runs');
      assert.match(res.stdout, /runId/);
      const line = (runId: string) => res.stdout.split('\n').find((l) => l.includes(`| ${runId} `));
      assert.ok(line(RUN1), res.stdout);
      assert.ok(line(RUN2), res.stdout);
      // Run 2 wrote a's new properties and owner, and c's key and properties.
      assert.match(line(RUN2)!, /\|\s+4\s+\|/);
      assert.ok(res.stdout.indexOf(RUN2) < res.stdout.indexOf(RUN1), 'newest run first');
    });

    it("shows run 2's aspects with `datahub ingest show`, and their values with --show-aspect", async () => {
      const res = await runDatahubCli(server, 'ingest', 'show', '--run-id', RUN2);
      const rows = res.stdout.split('\n').filter((l) => l.startsWith('| urn:'));
      assert.deepEqual(
        rows.map((l) =>
          l
            .split('|')
            .slice(1, 3)
            .map((c) => c.trim()),
        ),
        [
          [A, 'datasetProperties'],
          [A, 'ownership'],
          [C, 'datasetKey'],
          [C, 'datasetProperties'],
        ],
      );
      const full = await runDatahubCli(server, 'ingest', 'show', '--run-id', RUN2, '--show-aspect');
      assert.match(full.stdout, /"description": "a bad description"/);
      assert.match(full.stdout, /"owner": "urn:li:corpuser:jdoe"/);
    });

    it('lists what `rollback --dry-run` would change, and changes nothing', async () => {
      const res = await rollback('--dry-run');
      // The CLI's wording: entities affected, and aspects reverted (a soft rollback keeps c's key aspect).
      assert.match(res.stdout, /This rollback will delete 2 entities and will roll back 3 aspects/);
      const rows = res.stdout.split('\n').filter((l) => l.startsWith('| urn:'));
      assert.deepEqual(
        rows.map((l) =>
          l
            .split('|')
            .slice(1, 3)
            .map((c) => c.trim())
            .join(' '),
        ),
        [`${A} datasetProperties`, `${A} ownership`, `${C} datasetProperties`],
      );
      assert.deepEqual(await stored(server, [A, B, C]), afterRun2);
    });

    it("restores run 1's values exactly with `rollback`, and soft-deletes the entity run 2 created", async () => {
      const res = await rollback('-f');
      assert.match(res.stdout, /This rollback {2}deleted 2 entities and rolled back 3 aspects/);
      assert.equal((await storedAspect(server, A, 'datasetProperties'))?.description, 'every order');
      // Every version of a and b reads back as run 1 left it: values, versions, created stamps and systemMetadata,
      // except the latest systemMetadata of what run 2 sent again unchanged (a sighting DataHub records too).
      const now = await stored(server, [A, B]);
      const sightings = now.filter((line, i) => line !== afterRun1[i]);
      for (const line of sightings) assert.match(line, /"runId":"almanac-rollback-2"/, `only sightings differ: ${line}`);
      const sighted = sightings.map((l) => l.split(' ').slice(0, 3).join(' ')).sort();
      assert.deepEqual(sighted, [`${A} globalTags 0`, `${B} datasetProperties 0`]);
      assert.equal(await storedAspect(server, A, 'ownership'), undefined);
      assert.deepEqual(await storedAspect(server, C, 'status'), { removed: true });
      assert.equal(await storedAspect(server, C, 'datasetProperties'), undefined);
    });

    it('removes what is left of the entity run 2 created with `rollback --nuke`', async () => {
      const res = await rollback('--nuke', '-f');
      assert.match(res.stdout, /deleted 1 entities/);
      assert.deepEqual((await server.request('POST', '/entities?action=exists', { body: { urn: C } })).json, { value: false });
      assert.deepEqual(
        await stored(server, [C]),
        afterRun1.filter((l) => l.startsWith(C)),
      );
      const runs = await runDatahubCli(server, 'ingest', 'list-runs', '--include-soft-deletes');
      assert.doesNotMatch(runs.stdout, new RegExp(RUN2));
      assert.match(runs.stdout, new RegExp(RUN1));
    });
  });
}
