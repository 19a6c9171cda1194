// `npm run bench [name] [-- args]`: runs every bench/*.bench.ts (or those whose name contains `name`).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const [filter, ...args] = process.argv.slice(2).filter((a) => a !== '--');
const wanted = filter && !filter.startsWith('--') ? filter : undefined;
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts') && (!wanted || f.includes(wanted)))
  .sort();
const rest = wanted ? args : process.argv.slice(2).filter((a) => a !== '--');
console.log(`Almanac benchmarks, ${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${process.platform}/${process.arch}`);
for (const f of files) {
  const mod = (await import(pathToFileURL(path.join(dir, f)).href)) as { default: (args: string[]) => Promise<void> };
  console.log(`\n## ${f.replace('.bench.ts', '')}`);
  await mod.default(rest);
}
