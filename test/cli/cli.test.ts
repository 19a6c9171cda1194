import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { mcp } from '../support/fixtures.ts';
import { createSqliteDatabase, type TestDatabase } from '../support/databases.ts';
import { ROOT, childEnv } from '../support/process.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const run = promisify(execFile);
const BIN = path.join(ROOT, 'bin/almanac.mjs');
const DAY = 86_400_000;
const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,cli.orders,PROD)';

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

describe('the almanac command line against a real server', () => {
  let db: TestDatabase;
  let server: TestServer;
  let dir: string;

  /** Runs the real binary, never in a terminal, with the DataHub CLI's variables pointing at the test server. */
  const cli = async (args: string[], env: Record<string, string> = {}): Promise<CliResult> => {
    try {
      const { stdout, stderr } = await run(BIN, args, {
        cwd: ROOT,
        env: childEnv({ DATAHUB_GMS_URL: server.url, DATAHUB_GMS_TOKEN: server.adminToken, ...env }),
      });
      return { code: 0, stdout, stderr };
    } catch (e) {
      const err = e as { code: number; stdout: string; stderr: string };
      return { code: err.code, stdout: err.stdout, stderr: err.stderr };
    }
  };
  const file = (name: string, content: unknown) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
    return p;
  };

  before(async () => {
    db = await createSqliteDatabase();
    server = await startTestServer(db);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-cli-'));
  });
  after(async () => {
    await server?.close();
    await db?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('ingests a file of proposals, naming each failure and exiting non-zero', async () => {
    const now = Date.now();
    const items = [
      mcp(URN, 'status', { removed: false }),
      mcp(URN, 'datasetProperties', { name: 'orders', description: 'Orders' }),
      mcp(URN, 'datasetProperties', { name: 7 }),
      ...[200, 100, 10, 1].map((age) => mcp(URN, 'datasetProfile', { timestampMillis: now - age * DAY, rowCount: age })),
    ];
    const res = await cli(['ingest', file('mcps.json', items)]);
    assert.equal(res.code, 1);
    assert.match(res.stdout, /^6 of 7 proposals ingested, 1 failed\n$/);
    assert.match(res.stderr, /failed #2 urn:li:dataset:\(urn:li:dataPlatform:hive,cli\.orders,PROD\): 422: .*name/);
  });

  it("ingests DataHub's file-sink format (MCE snapshots and MCPs with aspect.json)", async () => {
    const other = 'urn:li:dataset:(urn:li:dataPlatform:hive,cli.customers,PROD)';
    const sink = [
      {
        auditHeader: null,
        proposedSnapshot: {
          'com.linkedin.pegasus2avro.metadata.snapshot.DatasetSnapshot': {
            urn: other,
            aspects: [{ 'com.linkedin.pegasus2avro.common.Status': { removed: false } }],
          },
        },
      },
      { entityType: 'dataset', entityUrn: other, changeType: 'UPSERT', aspectName: 'datasetProperties', aspect: { json: { name: 'customers' } } },
    ];
    const res = await cli(['ingest', file('sink.json', sink), '--json']);
    assert.equal(res.code, 0, res.stderr);
    assert.deepEqual(JSON.parse(res.stdout), { proposals: 2, succeeded: 2, failed: [] });
  });

  it('shows an entity, as text and as JSON', async () => {
    const text = await cli(['get', URN]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /DatasetProperties\n\{\n {2}"name": "orders"/);
    const json = await cli(['get', URN, '--json']);
    assert.equal(JSON.parse(json.stdout)['com.linkedin.metadata.snapshot.DatasetSnapshot'].urn, URN);
  });

  it('fails with one clear line: a missing entity, a missing token, an unreachable server', async () => {
    const missing = await cli(['get', 'urn:li:dataset:(urn:li:dataPlatform:hive,nope,PROD)']);
    assert.equal(missing.code, 4);
    assert.equal(missing.stderr, 'almanac: 404: Entity urn:li:dataset:(urn:li:dataPlatform:hive,nope,PROD) not found\n');
    const noToken = await cli(['get', URN], { DATAHUB_GMS_TOKEN: '' });
    assert.equal(noToken.code, 3);
    assert.match(noToken.stderr, /^almanac: 401: .*DATAHUB_GMS_TOKEN\)\n$/);
    const away = await cli(['get', URN, '--server', 'http://127.0.0.1:9']);
    assert.equal(away.code, 5);
    assert.match(away.stderr, /^almanac: cannot reach http:\/\/127\.0\.0\.1:9/);
    assert.equal(away.stderr.split('\n').length, 2);
  });

  it('deprecates, shows the history, and undeprecates', async () => {
    const dep = await cli(['deprecate', URN, '--note', 'Use cli.orders_v2', '--decommission', '2026-12-31']);
    assert.equal(dep.code, 0, dep.stderr);
    assert.equal(dep.stdout, 'deprecated 1 entity\n');
    const undep = await cli(['undeprecate', URN, '--json']);
    assert.deepEqual(JSON.parse(undep.stdout), { updated: [URN], deprecated: false, result: true });
    const history = JSON.parse((await cli(['deprecation-history', URN, '--json'])).stdout);
    assert.deepEqual(
      history.map((h: { deprecated: boolean; note: string; decommissionTime: number | null; actor: string }) => [
        h.deprecated,
        h.note,
        h.decommissionTime,
        h.actor,
      ]),
      [
        [false, '', null, 'urn:li:corpuser:datahub'],
        [true, 'Use cli.orders_v2', Date.UTC(2026, 11, 31), 'urn:li:corpuser:datahub'],
      ],
    );
    const table = await cli(['deprecation-history', URN]);
    assert.match(table.stdout, /Use cli\.orders_v2/);
  });

  it('refuses deprecating nothing, and a bad date', async () => {
    assert.match((await cli(['deprecate'])).stderr, /^almanac: give at least one urn, or --file\n$/);
    const bad = await cli(['deprecate', URN, '--decommission', 'someday']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--decommission must be a date/);
  });

  it('lists index sizes with rows and dates', async () => {
    const res = await cli(['index-sizes', '--json']);
    assert.equal(res.code, 0, res.stderr);
    const profile = JSON.parse(res.stdout).find((i: { indexName: string }) => i.indexName === 'dataset_datasetprofileaspect_v1');
    assert.equal(profile.rowCount, 4);
    assert.match((await cli(['index-sizes'])).stdout, /dataset_datasetprofileaspect_v1/);
  });

  it('prints a dry run clearly and deletes nothing', async () => {
    const res = await cli(['truncate', '--entity-type', 'dataset', '--aspect', 'datasetProfile', '--older-than', '50d']);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /^DRY RUN \(nothing was deleted\)/);
    assert.match(res.stdout, /Delete 2 out of 4 rows \(50\.00%\)\. /);
    assert.match(res.stdout, /\nAdd --execute to delete them\.\n$/);
    assert.doesNotMatch(res.stdout, /dryRun = false/, "one instruction, the CLI's");
  });

  it('runs a truncation to completion with --execute and reports the task', async () => {
    const res = await cli(['truncate', '--entity-type', 'dataset', '--aspect', 'datasetProfile', '--older-than', '50d', '--execute', '--json']);
    assert.equal(res.code, 0, res.stderr);
    const task = JSON.parse(res.stdout);
    assert.equal(task.state, 'completed');
    assert.equal(task.rowsDeleted, 2);
    assert.match(task.id, /^[a-zA-Z0-9_-]+:[0-9]+$/);
    const status = await cli(['task', 'status', task.id]);
    assert.match(status.stdout, new RegExp(`^${task.id} completed: 2 of 2 rows deleted from dataset_datasetprofileaspect_v1`));
    const list = JSON.parse((await cli(['task', 'list', '--json'])).stdout);
    assert.equal(list[0].id, task.id);
    const sizes = JSON.parse((await cli(['index-sizes', '--json'])).stdout);
    assert.equal(sizes.find((i: { indexName: string }) => i.indexName === 'dataset_datasetprofileaspect_v1').rowCount, 2);
  });

  it('refuses a truncation without exactly one cutoff', async () => {
    const res = await cli(['truncate', '--entity-type', 'dataset', '--aspect', 'datasetProfile']);
    assert.equal(res.code, 2);
    assert.equal(res.stderr, 'almanac: give exactly one of --older-than or --before\n');
  });

  it('deletes a window of a timeseries aspect, a soft delete, and a hard delete, each exactly as asked', async () => {
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,cli.deletes,PROD)';
    const t0 = Date.UTC(2026, 0, 10);
    const stamps = [t0 - DAY, t0, t0 + DAY];
    const proposals = [mcp(urn, 'status', { removed: false }), ...stamps.map((t) => mcp(urn, 'datasetProfile', { timestampMillis: t, rowCount: 1 }))];
    assert.equal((await server.request('POST', '/aspects?action=ingestProposalBatch', { body: { proposals } })).status, 200);
    const profiles = async () => {
      const res = await server.request('POST', '/aspects?action=getTimeseriesAspectValues', {
        body: { urn, entity: 'dataset', aspect: 'datasetProfile' },
      });
      return res.json.value.values.map((v: { aspect: { value: string } }) => JSON.parse(v.aspect.value).timestampMillis);
    };

    const windowed = await cli([
      'delete',
      '--urn',
      urn,
      '--aspect',
      'datasetProfile',
      '--start-time',
      '2026-01-10',
      '--end-time',
      String(t0 + DAY),
      '--hard',
      '--json',
    ]);
    assert.equal(windowed.code, 0, windowed.stderr);
    assert.deepEqual(JSON.parse(windowed.stdout), { urn, rows: 0, timeseriesRows: 2 });
    assert.deepEqual(await profiles(), [t0 - DAY]);

    const refused = await cli(['delete', '--urn', urn, '--aspect', 'datasetProfile']);
    assert.equal(refused.code, 2);
    assert.equal(refused.stderr, 'almanac: an aspect cannot be soft-deleted: add --hard\n');

    const soft = await cli(['delete', '--urn', urn]);
    assert.equal(soft.code, 0, soft.stderr);
    const status = await server.request('GET', `/aspects/${encodeURIComponent(urn)}?aspect=status&version=0`);
    assert.deepEqual(status.json.aspect, { 'com.linkedin.common.Status': { removed: true } });

    const hard = await cli(['delete', '--urn', urn, '--hard']);
    assert.equal(hard.code, 0, hard.stderr);
    assert.match(hard.stdout, /Hard-deleted the entity of .*: 3 aspect rows, 1 timeseries rows/);
    assert.deepEqual((await server.request('POST', '/entities?action=exists', { body: { urn } })).json, { value: false });
  });

  it('creates, lists and deletes a policy', async () => {
    const created = await cli([
      'policy',
      'create',
      '--name',
      'cli policy',
      '--privilege',
      'EDIT_DEPRECATION_PRIVILEGE',
      '--user',
      'urn:li:corpuser:alice',
      '--resource',
      URN,
    ]);
    assert.equal(created.code, 0, created.stderr);
    const urn = created.stdout.trim();
    assert.match(urn, /^urn:li:dataHubPolicy:[0-9a-f-]{36}$/);
    const listed = JSON.parse((await cli(['policy', 'list', '--query', 'cli policy', '--json'])).stdout);
    assert.deepEqual(
      listed.policies.map((p: { urn: string; privileges: string[]; actors: { users: string[] } }) => [p.urn, p.privileges, p.actors.users]),
      [[urn, ['EDIT_DEPRECATION_PRIVILEGE'], ['urn:li:corpuser:alice']]],
    );
    assert.match((await cli(['policy', 'list'])).stdout, new RegExp(`URN EQUALS ${URN.replace(/[()]/g, '\\$&')}`));
    assert.equal((await cli(['policy', 'delete', urn])).stdout, `deleted ${urn}\n`);
    assert.deepEqual(JSON.parse((await cli(['policy', 'list', '--query', 'cli policy', '--json'])).stdout).policies, []);
  });

  it('refuses a policy without a privilege, and one naming a group as a user', async () => {
    assert.match((await cli(['policy', 'create', '--name', 'x'])).stderr, /^almanac: give at least one --privilege\n$/);
    const bad = await cli(['policy', 'create', '--name', 'x', '--privilege', 'EDIT_ENTITY', '--user', 'urn:li:corpGroup:g']);
    assert.equal(bad.code, 2, 'a request the server refuses as invalid exits 2');
    assert.match(bad.stderr, /input\.actors\.users\[0\]/);
  });

  it('has --help with examples on every command', async () => {
    for (const args of [
      ['truncate'],
      ['ingest'],
      ['delete'],
      ['deprecate'],
      ['task', 'status'],
      ['index-sizes'],
      ['token', 'create'],
      ['user', 'create'],
      ['policy', 'create'],
    ]) {
      const res = await cli([...args, '--help']);
      assert.equal(res.code, 0);
      assert.match(res.stdout, /Examples?:/, args.join(' '));
    }
  });
});
