// Bundles the console (web/src) into web/dist with esbuild: no CDN, everything from npm.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function buildWeb() {
  await build({
    entryPoints: { app: path.join(root, 'web/src/main.tsx') },
    outdir: path.join(root, 'web/dist'),
    entryNames: '[name]',
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2020',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildWeb();
