import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runAlmanac } from '../support/cli.ts';
import { backends } from '../support/databases.ts';
import { mcp } from '../support/fixtures.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,truncate.output,PROD)';
const DAY = 86_400_000;

for (const backend of await backends()) {
  describe(`almanac truncate, as a person reads it (${backend.name})`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      const now = Date.now();
      const proposals = [
        mcp(URN, 'status', { removed: false }),
        ...[40, 30, 3, 2].map((age) => mcp(URN, 'datasetProfile', { timestampMillis: now - age * DAY, rowCount: age })),
      ];
      assert.equal((await s.request('POST', '/aspects?action=ingestProposalBatch', { body: { proposals } })).status, 200);
    });
    const truncate = (...extra: string[]) =>
      runAlmanac(['truncate', '--entity-type', 'dataset', '--aspect', 'datasetProfile', '--older-than', '10d', ...extra], {
        env: { DATAHUB_GMS_URL: server.url, DATAHUB_GMS_TOKEN: server.adminToken },
      });

    it('a dry run gives one instruction: the flag to add', async () => {
      const res = await truncate();
      assert.equal(res.code, 0, res.stderr);
      assert.match(
        res.stdout,
        /^DRY RUN \(nothing was deleted\) for rows before \S+:\nDelete 2 out of 4 rows \(50\.00%\)\. [^\n]*\nAdd --execute to delete them\.\n$/,
      );
      assert.equal(res.stdout.match(/execute/gi)?.length, 1, res.stdout);
    });

    it('a real run reports the rows deleted and the index size before and after, in bytes it measured', async () => {
      const res = await truncate('--execute');
      assert.equal(res.code, 0, res.stderr);
      const line =
        /^\S+ completed: 2 of 2 rows deleted from dataset_datasetprofileaspect_v1 \(before \S+, \w+, \d+ batches, [\d.]+ s; size ([\d.]+) MB -> ([\d.]+) MB\)\n$/.exec(
          res.stdout,
        );
      assert.ok(line, res.stdout);
      assert.ok(Number(line[1]) > 0, 'the size before is a measurement, not a placeholder');
      assert.ok(Number(line[2]) <= Number(line[1]));
      assert.doesNotMatch(res.stdout, / - /);
    });
  });
}
