// The compiled CLI and server in dist/: esbuild bundles src/ (npm packages stay external, so native modules load as
// installed) at `npm ci` (the prepare script) and before the tests; bin/almanac.mjs runs it only while it matches src/.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = path.join(ROOT, 'dist');
const INFO = 'build-info.json';
/** Files loaded next to the bundle at run time (worker threads), copied beside it. */
const WORKERS = ['src/storage/sqlite/checkpoint-worker.mjs', 'src/storage/sqlite/read-worker.mjs'];

const digest = (file) => crypto.createHash('sha256').update(fs.readFileSync(path.join(ROOT, file))).digest('hex');

/** Bundles into a fresh directory, then swaps it in, so a concurrent start never loads half a build. */
export async function buildDist() {
  const { build } = await import('esbuild');
  const tmp = `${DIST}.${process.pid}.tmp`;
  fs.rmSync(tmp, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { cli: 'src/cli/main.ts' },
    outdir: tmp,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  for (const file of WORKERS) fs.copyFileSync(path.join(ROOT, file), path.join(tmp, path.basename(file)));
  const inputs = [...Object.keys(result.metafile.inputs), ...WORKERS, 'package.json'].sort();
  const files = Object.fromEntries(inputs.map((f) => [f, { size: fs.statSync(path.join(ROOT, f)).size, mtimeMs: fs.statSync(path.join(ROOT, f)).mtimeMs, sha256: digest(f) }]));
  fs.writeFileSync(path.join(tmp, INFO), `${JSON.stringify({ builtAt: new Date().toISOString(), files }, null, 1)}\n`);
  const old = `${DIST}.${process.pid}.old`;
  if (fs.existsSync(DIST)) fs.renameSync(DIST, old);
  fs.renameSync(tmp, DIST);
  fs.rmSync(old, { recursive: true, force: true });
}

/**
 * 'fresh' when every source file the bundle was built from is unchanged: same size, and the same mtime or else the
 * same content (a checkout touches mtimes without changing files). A changed file makes it 'stale'; a new file can
 * only matter once a built one imports it, which changes that one.
 */
export function distState() {
  let info;
  try {
    info = JSON.parse(fs.readFileSync(path.join(DIST, INFO), 'utf8'));
  } catch {
    return 'missing';
  }
  for (const [file, built] of Object.entries(info.files)) {
    let stat;
    try {
      stat = fs.statSync(path.join(ROOT, file));
    } catch {
      return 'stale';
    }
    if (stat.size !== built.size) return 'stale';
    if (stat.mtimeMs !== built.mtimeMs && digest(file) !== built.sha256) return 'stale';
  }
  return 'fresh';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildDist();
  console.log(`almanac: built ${path.relative(process.cwd(), DIST) || DIST}/`);
}
