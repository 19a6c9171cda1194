// Builds the Python virtual environment holding DataHub's real client, which the tests in test/clients/ drive:
// <repo>/.venv-datahub with test/clients/requirements.txt installed. A stamp holding the requirements' hash makes a
// second run a no-op. `node scripts/datahub-client-env.mjs` builds it (CI does); the tests call datahubClientEnv().
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const VENV = path.join(root, '.venv-datahub');
const REQUIREMENTS = path.join(root, 'test/clients/requirements.txt');
const STAMP = path.join(VENV, 'requirements.sha256');
const LOCK = `${VENV}.lock`;
const FAILED = `${VENV}.failed`;
const LOCK_WAIT_MS = 15 * 60_000;
const FAILURE_REUSE_MS = 10 * 60_000;

const paths = { python: path.join(VENV, 'bin/python'), datahub: path.join(VENV, 'bin/datahub') };

/**
 * The environment's `{ python, datahub }` paths, building it first unless its stamp matches the requirements, or
 * `{ reason }` when it cannot be built. With `verbose`, python's and pip's output goes to this process's stderr.
 * With `reuseFailure`, a build of the same requirements that failed in the last minutes is not tried again (each
 * test file asks, and a failing pip can take minutes).
 */
export async function datahubClientEnv({ verbose = false, reuseFailure = false } = {}) {
  const hash = crypto.createHash('sha256').update(fs.readFileSync(REQUIREMENTS)).digest('hex');
  if (upToDate(hash)) return paths;
  const release = await lock();
  if (typeof release === 'string') return { reason: release };
  try {
    if (upToDate(hash)) return paths; // another process built it while this one waited
    const failure = reuseFailure ? recentFailure(hash) : undefined;
    if (failure) return { reason: failure };
    const reason = await build(verbose);
    if (reason) {
      fs.writeFileSync(FAILED, JSON.stringify({ hash, reason }));
      return { reason };
    }
    fs.rmSync(FAILED, { force: true });
    fs.writeFileSync(STAMP, `${hash}\n`);
    return paths;
  } finally {
    release();
  }
}

function recentFailure(hash) {
  const stat = fs.statSync(FAILED, { throwIfNoEntry: false });
  if (!stat || Date.now() - stat.mtimeMs > FAILURE_REUSE_MS) return undefined;
  const failure = JSON.parse(fs.readFileSync(FAILED, 'utf8'));
  return failure.hash === hash ? failure.reason : undefined;
}

function upToDate(hash) {
  const read = (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
  return read(STAMP).trim() === hash && interpreterWorks() && fs.existsSync(paths.datahub);
}

/** The venv's python exists and so does the interpreter it was made from (pyvenv.cfg's `home`). */
function interpreterWorks() {
  const home = /^home\s*=\s*(.+)$/m.exec(fs.existsSync(path.join(VENV, 'pyvenv.cfg')) ? fs.readFileSync(path.join(VENV, 'pyvenv.cfg'), 'utf8') : '');
  return fs.existsSync(paths.python) && home !== null && fs.existsSync(home[1].trim());
}

/** Creates the venv if it has no working interpreter, then installs the requirements; a reason on failure. */
async function build(verbose) {
  if (!interpreterWorks()) {
    const python = await run('python3', ['--version'], verbose);
    if (python.missing) return 'python3 is not installed';
    if (python.code !== 0) return `python3 --version failed: ${python.tail}`;
    fs.rmSync(VENV, { recursive: true, force: true });
    const venv = await run('python3', ['-m', 'venv', VENV], verbose);
    if (venv.code !== 0) {
      fs.rmSync(VENV, { recursive: true, force: true });
      return `python3 -m venv failed (on Debian, install python3-venv): ${venv.tail}`;
    }
  }
  const args = ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', ...(verbose ? [] : ['-q']), '-r', REQUIREMENTS];
  const pip = await run(paths.python, args, verbose);
  if (pip.code !== 0) return `pip install -r ${path.relative(root, REQUIREMENTS)} failed: ${pip.tail}`;
  return undefined;
}

/** Runs a command; `tail` is the last lines of its output (empty when verbose, where it went to stderr). */
function run(command, args, verbose) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', verbose ? process.stderr : 'pipe', verbose ? process.stderr : 'pipe'] });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.on('error', (e) => resolve({ code: -1, missing: e.code === 'ENOENT', tail: e.message }));
    child.on('close', (code) => {
      const lines = output
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
      resolve({ code, missing: false, tail: lines.slice(-4).join(' | ') || `exit code ${code}` });
    });
  });
}

/** Takes the build lock (a directory holding the owner's pid), so parallel test files build once; a reason on timeout. */
async function lock() {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      fs.writeFileSync(path.join(LOCK, 'pid'), String(process.pid));
      return () => fs.rmSync(LOCK, { recursive: true, force: true });
    } catch (e) {
      if (e.code !== 'EEXIST') return `cannot create ${LOCK}: ${e.message}`;
    }
    if (lockIsStale()) fs.rmSync(LOCK, { recursive: true, force: true });
    else if (Date.now() > deadline) return `${LOCK} is still held after ${LOCK_WAIT_MS / 60_000} minutes`;
    else await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The owner died (a killed build), or wrote no pid within seconds of taking the lock. */
function lockIsStale() {
  const pidFile = path.join(LOCK, 'pid');
  const pid = Number(fs.existsSync(pidFile) ? fs.readFileSync(pidFile, 'utf8') : '');
  if (!Number.isInteger(pid) || pid <= 0) return Date.now() - (fs.statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 10_000;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return e.code !== 'EPERM';
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const env = await datahubClientEnv({ verbose: true });
  if (env.reason) {
    console.error(`datahub client environment: ${env.reason}`);
    process.exit(1);
  }
  console.log(`datahub client environment: ${env.datahub}`);
}
