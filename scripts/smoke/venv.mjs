// The Python environment DataHub's smoke suite runs in: pytest and the plugins `smoke-test/requirements.txt` names,
// and the pinned `acryl-datahub` release (the one test/clients/ pins) in place of the editable checkout of
// `metadata-ingestion` DataHub's own file installs. `READY` in the environment marks a finished build.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// The extras DataHub's requirements ask of metadata-ingestion, less `datahub-documents` (unstructured and nltk, for
// document ingestion, which no smoke directory Almanac is judged by uses).
const EXTRAS = 'datahub-rest,datahub-kafka,datahub-pg-queue,mysql,postgres';
// Linters and type stubs: DataHub lints its suite with them; running it needs none.
const LINT_ONLY = /^(mypy|ruff|types-)/;
const LOCK_WAIT_MS = 30 * 60_000;

/** The acryl-datahub version this repository pins for its client tests. */
function pinnedDatahub(root) {
  const text = fs.readFileSync(path.join(root, 'test/clients/requirements.txt'), 'utf8');
  const pin = /^acryl-datahub\[[^\]]*\]==(\S+)/m.exec(text);
  if (!pin) throw new Error('test/clients/requirements.txt pins no acryl-datahub');
  return pin[1];
}

/** The requirements installed: DataHub's list with the editable line replaced and the linters dropped. */
export function smokeRequirements(root, src) {
  const theirs = fs.readFileSync(path.join(src, 'smoke-test/requirements.txt'), 'utf8').split('\n');
  const kept = theirs.map((l) => l.replace(/#.*/, '').trim()).filter((l) => l && !l.startsWith('-e') && !LINT_ONLY.test(l));
  return [`acryl-datahub[${EXTRAS}]==${pinnedDatahub(root)}`, ...kept];
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function lock(venv) {
  const dir = `${venv}.lock`;
  const start = Date.now();
  for (;;) {
    try {
      fs.mkdirSync(dir);
      return () => fs.rmSync(dir, { recursive: true, force: true });
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      if (Date.now() - start > LOCK_WAIT_MS) throw new Error(`${dir} held for ${LOCK_WAIT_MS / 60_000} minutes; remove it if no build runs`);
      await sleep(2000);
    }
  }
}

const run = (cmd, args) => {
  console.error(`smoke: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.slice(0, 3).join(' ')} exited ${r.status}`);
};

/** Builds the environment unless `READY` is there; returns its python. Python 3.11, as DataHub's suite requires. */
export async function ensureVenv(venv, root, src) {
  const python = path.join(venv, 'bin/python');
  const ready = path.join(venv, 'READY');
  if (fs.existsSync(ready)) return python;
  const release = await lock(venv);
  try {
    if (fs.existsSync(ready)) return python;
    const requirements = smokeRequirements(root, src);
    const base = spawnSync('python3.11', ['--version']).status === 0 ? 'python3.11' : 'python3';
    if (!fs.existsSync(python)) run(base, ['-m', 'venv', venv]);
    run(python, ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '-q', ...requirements]);
    fs.writeFileSync(ready, `${requirements.join('\n')}\n`);
    return python;
  } finally {
    release();
  }
}
