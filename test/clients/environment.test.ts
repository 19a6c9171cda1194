import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { buildDatahubClient, datahubClientPaths, datahubClientSkipReason } from '../support/datahub-client.ts';
import { ROOT } from '../support/process.ts';

const PIN = /^acryl-datahub\[[a-z-,]+\]==(\S+)$/m.exec(fs.readFileSync(path.join(ROOT, 'test/clients/requirements.txt'), 'utf8'))?.[1];

// The one place the client tier reports why it is skipped; the other files in test/clients/ then run nothing.
describe("DataHub's Python client for the client tier", { skip: await datahubClientSkipReason() }, () => {
  it('has the acryl-datahub version pinned in test/clients/requirements.txt', async () => {
    assert.ok(PIN, 'requirements.txt pins acryl-datahub with ==');
    const { python } = await datahubClientPaths();
    const { stdout } = await promisify(execFile)(python, ['-c', "from importlib.metadata import version; print(version('acryl-datahub'))"]);
    assert.equal(stdout.trim(), PIN);
  });

  it('finds the environment up to date in well under a second', async () => {
    const start = performance.now();
    assert.ok(!('reason' in (await buildDatahubClient())));
    assert.ok(performance.now() - start < 500, `took ${performance.now() - start} ms`);
  });
});
