import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inTerminal, runAlmanac } from '../support/cli.ts';
import { backends } from '../support/databases.ts';
import { mcp } from '../support/fixtures.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,retention.cli,PROD)';
const DAY = 86_400_000;

const [backend] = await backends();

describe('almanac retention and a confirmed truncate, as a person runs them', { skip: backend!.skip }, () => {
  let server: TestServer;
  useServer(
    backend!,
    async (s) => {
      server = s;
      const now = Date.now();
      // Ten profiles, 0.5 to 9.5 days old; seven usage rows, 20 to 26 days old.
      const proposals = [
        mcp(URN, 'status', { removed: false }),
        ...Array.from({ length: 10 }, (_, i) => mcp(URN, 'datasetProfile', { timestampMillis: now - (i + 0.5) * DAY, rowCount: i })),
        ...Array.from({ length: 7 }, (_, i) => mcp(URN, 'datasetUsageStatistics', { timestampMillis: now - (20 + i) * DAY })),
      ];
      assert.equal((await s.request('POST', '/aspects?action=ingestProposalBatch', { body: { proposals } })).status, 200);
    },
    { ALMANAC_RETENTION_SCHEDULE: 'off' },
  ); // no daily run: it would apply the policy the test sets at a moment of its own
  const env = () => ({ DATAHUB_GMS_URL: server.url, DATAHUB_GMS_TOKEN: server.adminToken });
  const cli = (...args: string[]) => runAlmanac(args, { env: env() });

  it('sets, lists, previews, runs and deletes a policy', async () => {
    assert.match((await cli('retention', 'list')).stdout, /^No retention policy/);
    const set = await cli('retention', 'set', '--entity', 'dataset', '--aspect', 'datasetProfile', '--max-age', '7d');
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /set retention for dataset datasetProfile/);
    const list = await cli('retention', 'list');
    assert.match(list.stdout, /dataset\s+│?\s*datasetProfile\s+│?\s*│?\s*7d\s+│?\s*api/);
    const preview = await cli('retention', 'preview', '--json');
    const entry = JSON.parse(preview.stdout).preview.find((p: { aspect: string }) => p.aspect === 'datasetProfile');
    assert.deepEqual([entry.delete, entry.total], [3, 10]);
    assert.match((await cli('retention', 'preview')).stdout, /3 of 10 rows/);
    const run = await cli('retention', 'run');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /completed \(manual\)/);
    assert.match(run.stdout, /dataset datasetProfile: started, 3 of 10 rows before/);
    assert.match((await cli('retention', 'history')).stdout, /manual/);
    const bad = await cli('retention', 'set', '--entity', 'dataset', '--aspect', 'datasetProfile', '--max-versions', '3');
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /Field 'config.retention.version': datasetProfile is a timeseries aspect/);
    assert.equal((await cli('retention', 'delete', '--entity', 'dataset', '--aspect', 'datasetProfile')).code, 0);
    assert.equal((await cli('retention', 'delete', '--entity', 'dataset', '--aspect', 'datasetProfile')).code, 4);
  });

  const truncateAll = ['truncate', '--entity-type', 'dataset', '--aspect', 'datasetUsageStatistics', '--older-than', '10d', '--execute'];

  it('will not delete more than half of an index from a script without --yes', async () => {
    const res = await cli(...truncateAll);
    assert.equal(res.code, 2);
    assert.match(
      res.stderr,
      /this would delete 7 of 7 rows \(100\.00%\) of dataset datasetUsageStatistics, more than half of the index; add --yes to confirm/,
    );
    assert.equal(
      (await server.request('POST', '/operations?action=getIndexSizes', { body: {} })).json.value.indexSizes.find(
        (i: { aspectName: string }) => i.aspectName === 'datasetusagestatistics',
      ).rowCount,
      7,
    );
  });

  it('on a terminal, shows the dry run and asks; no keeps every row, yes deletes them', async () => {
    const no = await inTerminal(truncateAll, env(), [['[y/N]', 'n']]);
    assert.equal(no.status, 2, no.screen);
    assert.match(no.screen, /Delete 7 out of 7 rows \(100\.00%\)/);
    assert.match(no.screen, /not confirmed; nothing was deleted/);
    const yes = await inTerminal(truncateAll, env(), [['[y/N]', 'y']]);
    assert.equal(yes.status, 0, yes.screen);
    assert.match(yes.screen, /completed\S*: 7 of 7 rows deleted/);
  });

  it('--yes answers for a script', async () => {
    const proposals = [30, 31, 32].map((age) => mcp(URN, 'datasetUsageStatistics', { timestampMillis: Date.now() - age * DAY }));
    assert.equal((await server.request('POST', '/aspects?action=ingestProposalBatch', { body: { proposals } })).status, 200);
    const res = await cli(...truncateAll, '--yes');
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /completed: 3 of 3 rows deleted/);
  });
});
