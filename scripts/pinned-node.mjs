// The SQLite driver (better-sqlite3 13) needs Node.js 22 or newer. A script started by an older Node (a machine whose
// own Node is 20) runs itself again under the Node.js 24 that `npm ci` installed with the `node` package; npm scripts
// already run on that one (node_modules/.bin comes first on their PATH).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

export const PINNED_NODE = fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url));

/** Returns when this Node is new enough; otherwise runs `script` under the pinned Node and exits with its status. */
export function ensureSupportedNode(script) {
  if (Number(process.versions.node.split('.')[0]) >= 22) return;
  if (!fs.existsSync(PINNED_NODE)) {
    process.stderr.write(`Node.js ${process.version} is too old (22 or newer is needed) and ${PINNED_NODE} is missing: run npm ci\n`);
    process.exit(1);
  }
  const child = spawnSync(PINNED_NODE, [fileURLToPath(script), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(child.status ?? 1);
}
