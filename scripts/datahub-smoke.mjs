// Runs DataHub's own smoke-test suite (`smoke-test/` of DataHub's repository), unmodified, against a fresh Almanac
// server of this checkout: one directory at a time, each against a new server on a new database, printing per
// directory how many tests passed, failed, errored and were skipped, and writing a machine-readable summary.
// The suite is never copied into this repository: it is unpacked from a fetched mirror into a directory outside it.
//
// Usage:
//   node scripts/datahub-smoke.mjs [options] <directory>... [-- <pytest arguments>]
//
//   <directory>      a directory or file of smoke-test/, with or without `tests/`: trace, tests/restli,
//                    cli/search_cmd, patch/test_dataset_patches.py, or a pytest node id (tokens/x.py::test_y)
//   --postgres       run on a new PostgreSQL database (made on --postgres-url, dropped afterwards); default SQLite
//   --postgres-url   the server to make it on (default $ALMANAC_TEST_POSTGRES_URL or postgres://postgres@127.0.0.1:5432/postgres)
//   --mode <m>       login (default, DataHub's suite's own default: it signs in as ADMIN_USERNAME / ADMIN_PASSWORD,
//                    set on the root user with `almanac user create`, and checks the root user's bootstrap) or
//                    token (DATAHUB_GMS_TOKEN minted with `almanac token create`; no sign-in, no bootstrap check)
//   --admin-password the root user's password in login mode (default datahub, DataHub's quickstart default)
//   --server-env K=V a setting for the server (repeatable), e.g. --server-env ALMANAC_RATE_LIMIT_MAX=0
//   --timeout <s>    per-test timeout (pytest-timeout; default 300); a directory gets at most 60 minutes
//   --out <dir>      where each directory's server log, pytest output, JUnit XML and summary.json go
//                    (default a new directory under the system's temporary one)
//   --json           print the summary as JSON instead of a table
//   --src <dir>      DataHub's unpacked source (default /work/datahub-src; made from --mirror when missing)
//   --mirror <dir>   the fetched mirror's git directory (default /work/.mirror/acryldata+datahub/repo)
//   --venv <dir>     the suite's Python environment (default /work/smoke-venv; built when it has no READY file)
//   --setup          unpack the source and build the environment, then exit
//
// The test instance is set up as an operator would set one up for DataHub's suite: ALMANAC_PASSWORD_MIN_LENGTH=4
// (the suite signs users up with 4-character passwords), DATAHUB_GMS_URL and DATAHUB_FRONTEND_URL both at the server,
// USE_STATIC_SLEEP=1 with ELASTICSEARCH_REFRESH_INTERVAL_SECONDS=0 (Almanac indexes in the write's transaction, so
// there is no consumer lag to wait for) and DATAHUB_TEST_SLEEP_BETWEEN=1 (retries of a failing check wait 1 s, not 20).
// A directory whose tests wait for DataHub Actions to react (tests/actions) runs with DataHub's system actions beside
// the server, as DataHub's CI has its actions container up: smoke/actions.mjs (the client environment's
// datahub-actions, DataHub's recipe from the mirror with the datahub-cloud source; logs in the directory's output).
// Exit status: 0 when every test selected passed or was skipped, 1 otherwise, 2 for bad arguments.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { actionsFor, startActions } from './smoke/actions.mjs';
import { junitProblems, pytestCounts } from './smoke/results.mjs';
import { startAlmanac } from './smoke/server.mjs';
import { ensureSource } from './smoke/source.mjs';
import { ensureVenv } from './smoke/venv.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIRECTORY_TIMEOUT_MS = 60 * 60_000;
const ROOT_URN = 'urn:li:corpuser:datahub';

function usage(message) {
  console.error(
    `datahub-smoke: ${message}\nusage: node scripts/datahub-smoke.mjs [options] <directory>... [-- <pytest arguments>] (see the script's header)`,
  );
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      postgres: { type: 'boolean', default: false },
      'postgres-url': { type: 'string', default: process.env.ALMANAC_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
      mode: { type: 'string', default: 'login' },
      'admin-password': { type: 'string', default: 'datahub' },
      'server-env': { type: 'string', multiple: true, default: [] },
      timeout: { type: 'string', default: '300' },
      out: { type: 'string' },
      json: { type: 'boolean', default: false },
      src: { type: 'string', default: '/work/datahub-src' },
      mirror: { type: 'string', default: '/work/.mirror/acryldata+datahub/repo' },
      venv: { type: 'string', default: '/work/smoke-venv' },
      setup: { type: 'boolean', default: false },
    },
  });
} catch (e) {
  usage(e.message);
}
const { values: opts } = parsed;
const dashDash = process.argv.indexOf('--');
const pytestExtra = dashDash === -1 ? [] : process.argv.slice(dashDash + 1);
const targets = dashDash === -1 ? parsed.positionals : parsed.positionals.slice(0, parsed.positionals.length - pytestExtra.length);
if (!['login', 'token'].includes(opts.mode)) usage(`--mode must be login or token, not ${opts.mode}`);
if (!/^\d+$/.test(opts.timeout)) usage(`--timeout must be a number of seconds, not ${opts.timeout}`);
const serverEnv = {};
for (const kv of opts['server-env']) {
  const eq = kv.indexOf('=');
  if (eq < 1) usage(`--server-env takes KEY=VALUE, not ${kv}`);
  serverEnv[kv.slice(0, eq)] = kv.slice(eq + 1);
}
if (!opts.setup && targets.length === 0) usage('name at least one smoke-test directory');

const source = ensureSource(opts.src, opts.mirror);
const suite = path.join(opts.src, 'smoke-test');
const python = await ensureVenv(opts.venv, root, opts.src);
if (opts.setup) {
  console.log(`smoke: DataHub ${source.commit} in ${suite}; environment ${opts.venv} ready`);
  process.exit(0);
}

/** `trace` -> `tests/trace`; a path that exists as given (a root file such as test_e2e.py) is kept. */
function resolveTarget(target) {
  const file = target.split('::')[0];
  for (const candidate of [file, path.join('tests', file)]) {
    if (fs.existsSync(path.join(suite, candidate))) return candidate + target.slice(file.length);
  }
  usage(`${target} is not in ${suite}`);
}
const resolved = targets.map((t) => ({ name: t, path: resolveTarget(t) }));

const out = opts.out ?? fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-smoke-'));
fs.mkdirSync(out, { recursive: true });

function pytestEnv(server, token, home) {
  const env = Object.fromEntries(Object.entries(server.env).filter(([k]) => !/^(ALMANAC_|PORT$|HOST$|LOG_LEVEL$)/.test(k)));
  return {
    ...env,
    HOME: home,
    DATAHUB_GMS_URL: server.url,
    DATAHUB_FRONTEND_URL: server.url,
    ADMIN_USERNAME: 'datahub',
    ADMIN_PASSWORD: opts['admin-password'],
    ...(token ? { DATAHUB_GMS_TOKEN: token } : {}),
    DATAHUB_TELEMETRY_ENABLED: 'false',
    USE_STATIC_SLEEP: '1',
    ELASTICSEARCH_REFRESH_INTERVAL_SECONDS: '0',
    DATAHUB_TEST_SLEEP_BETWEEN: '1',
  };
}

function runPytest(target, dir, env) {
  const args = [
    '-m',
    'pytest',
    target,
    '-o',
    'addopts=',
    '-o',
    `log_file=${path.join(dir, 'pytest.log')}`,
    '-p',
    'no:cacheprovider',
    '-rfEs',
    `--timeout=${opts.timeout}`,
    `--junit-xml=${path.join(dir, 'junit.xml')}`,
    ...pytestExtra,
  ];
  const output = fs.openSync(path.join(dir, 'pytest.out'), 'w');
  const child = spawn(python, args, { cwd: suite, env, stdio: ['ignore', output, output] });
  const killer = setTimeout(() => child.kill('SIGKILL'), DIRECTORY_TIMEOUT_MS);
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      fs.closeSync(output);
      resolve(code ?? signal);
    }),
  );
}

async function runDirectory({ name, path: target }) {
  const dir = path.join(out, name.replace(/[^\w.-]+/g, '_'));
  const home = path.join(dir, 'home');
  fs.mkdirSync(home, { recursive: true });
  const started = Date.now();
  const server = await startAlmanac({ root, dir, postgresUrl: opts.postgres ? opts['postgres-url'] : undefined, serverEnv });
  let status;
  try {
    let token;
    if (opts.mode === 'login') server.almanac(['user', 'create', '--username', 'datahub', '--password', opts['admin-password']]);
    else token = server.almanac(['token', 'create', '--actor', ROOT_URN, '--duration', 'NO_EXPIRY', '--name', 'datahub-smoke']);
    const actions = actionsFor(target);
    const stopActions = actions.length
      ? startActions({
          root,
          mirror: opts.mirror,
          suite,
          dir,
          configs: actions,
          url: server.url,
          token: token ?? server.almanac(['token', 'create', '--actor', ROOT_URN, '--duration', 'NO_EXPIRY', '--name', 'datahub-actions']),
        })
      : async () => {};
    try {
      status = await runPytest(target, dir, pytestEnv(server, token, home));
    } finally {
      await stopActions();
    }
  } finally {
    await server.stop();
  }
  const counts = pytestCounts(fs.readFileSync(path.join(dir, 'pytest.out'), 'utf8'));
  const problems = junitProblems(path.join(dir, 'junit.xml'));
  const ran = counts && counts.passed + counts.failed + counts.skipped + counts.xfailed + counts.xpassed > 0;
  return {
    directory: name,
    ...(counts ?? { passed: 0, failed: 0, errors: 0, skipped: 0, xfailed: 0, xpassed: 0 }),
    // Every test erroring in set-up: a fixture failed for all of them (the session's sign-in or the root user's
    // bootstrap check, or a module's own set-up); its first reason.
    setUp: ran || !problems.length ? 'ok' : problems[0].reason,
    exit: status,
    seconds: Math.round((Date.now() - started) / 1000),
    output: dir,
    problems,
  };
}

const results = [];
for (const target of resolved) {
  console.error(`smoke: ${target.path} (${opts.postgres ? 'PostgreSQL' : 'SQLite'}, ${opts.mode} mode)`);
  const result = await runDirectory(target);
  results.push(result);
  console.error(
    `smoke: ${result.directory}: ${result.passed} passed, ${result.failed} failed, ${result.errors} errors, ${result.skipped} skipped (${result.seconds} s)`,
  );
}

const summary = {
  datahubCommit: source.commit,
  missingFromMirror: source.missing,
  backend: opts.postgres ? 'postgres' : 'sqlite',
  mode: opts.mode,
  finishedAt: new Date().toISOString(),
  results,
};
fs.writeFileSync(path.join(out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
if (opts.json) console.log(JSON.stringify(summary, null, 2));
else {
  console.log('directory\tpassed\tfailed\terrors\tskipped\tseconds');
  for (const r of results) console.log(`${r.directory}\t${r.passed}\t${r.failed}\t${r.errors}\t${r.skipped}\t${r.seconds}`);
  for (const r of results.filter((x) => x.setUp !== 'ok')) console.log(`${r.directory}: every test failed in set-up: ${r.setUp}`);
  console.log(`summary: ${path.join(out, 'summary.json')}`);
}
process.exit(results.every((r) => r.failed + r.errors + r.xpassed === 0 && r.setUp === 'ok') ? 0 : 1);
