import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runProcess } from '../support/cli.ts';
import { childEnv } from '../support/process.ts';

describe("the test runner's selection (scripts/run-tests.mjs)", () => {
  // CI names files for a tier (.ci/run's Node 26 list): a renamed file must fail the tier, not leave it silently.
  it('refuses a name that matches no test file, naming it, before it starts anything', async () => {
    const res = await runProcess(process.execPath, ['scripts/run-tests.mjs', 'test/unit/urn', 'test/api/no-such-file'], {
      env: childEnv({ ALMANAC_TEST_POSTGRES_URL: 'off' }),
    });
    assert.equal(res.code, 1, res.stdout + res.stderr);
    assert.match(res.stderr, /no test files matched test\/api\/no-such-file$/m);
    assert.doesNotMatch(res.stderr, /test\/unit\/urn/);
    assert.doesNotMatch(res.stdout, /# tests/, 'no test ran');
  });
});
