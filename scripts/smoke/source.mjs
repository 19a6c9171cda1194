// DataHub's smoke suite, unpacked from a fetched mirror of DataHub's repository into a directory outside this one.
// Only `smoke-test/` and the SDK examples its `library_examples` tests run (`metadata-ingestion/examples`) are taken.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const PATHS = ['smoke-test', 'metadata-ingestion/examples'];
const STAMP = '.almanac-smoke-source.json';

const git = (gitDir, args, input) => {
  const r = spawnSync('git', [`--git-dir=${gitDir}`, ...args], { input, maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`git ${args[0]} failed: ${r.stderr.toString().trim()}`);
  return r.stdout;
};

/** What the unpacked source was made from: `{ commit, missing }`, or undefined when it is not there yet. */
export function sourceStamp(src) {
  const file = path.join(src, STAMP);
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined;
}

/**
 * Unpacks `smoke-test/` (and the SDK examples) of the mirror's HEAD into `src`, unless already there. A mirror may
 * lack its largest blobs: those files are left out and listed in the stamp, so a run can say which tests lack data.
 */
export function ensureSource(src, mirror) {
  const stamp = sourceStamp(src);
  if (stamp) return stamp;
  if (!fs.existsSync(mirror)) throw new Error(`no DataHub mirror at ${mirror} (fetch github:acryldata/datahub, or pass --mirror)`);
  const commit = git(mirror, ['rev-parse', 'HEAD']).toString().trim();
  const tree = git(mirror, ['ls-tree', '-r', 'HEAD', '--', ...PATHS])
    .toString()
    .trim()
    .split('\n');
  const blobs = tree.map((line) => {
    const [meta, file] = line.split('\t');
    return { hash: meta.split(' ')[2], file };
  });
  const check = git(mirror, ['cat-file', '--batch-check'], blobs.map((b) => b.hash).join('\n') + '\n')
    .toString()
    .trim()
    .split('\n');
  const missing = blobs.filter((_, i) => check[i].endsWith(' missing')).map((b) => b.file);
  // Unpacked beside the target and renamed into place, so two runs starting at once never see half a tree.
  const partial = `${src}.partial-${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { recursive: true });
  const archive = git(mirror, ['archive', '--format=tar', 'HEAD', '--', ...PATHS, ...missing.map((f) => `:(exclude)${f}`)]);
  const untar = spawnSync('tar', ['-x', '-C', partial], { input: archive, maxBuffer: 16 * 1024 * 1024 });
  if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr.toString().trim()}`);
  const made = { commit, missing, unpackedAt: new Date().toISOString() };
  fs.writeFileSync(path.join(partial, STAMP), `${JSON.stringify(made, null, 2)}\n`);
  try {
    fs.renameSync(partial, src);
  } catch (e) {
    fs.rmSync(partial, { recursive: true, force: true });
    const other = sourceStamp(src);
    if (other) return other; // another run unpacked it first
    throw e;
  }
  return made;
}
