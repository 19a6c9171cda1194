// The SQLite driver (better-sqlite3 13) needs Node.js 22 or newer. A script started by an older Node (a machine whose
// own Node is 20) runs itself again under the Node.js 24 that `npm ci` installed with the `node` package; npm scripts
// already run on that one (node_modules/.bin comes first on their PATH).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

export const PINNED_NODE = fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url));

/** The signals a service manager, a container runtime or a terminal sends to the process it started. */
const FORWARDED = ['SIGTERM', 'SIGINT', 'SIGHUP'];

/**
 * Resolves when this Node is new enough; otherwise runs `script` under the pinned Node, never resolves, and exits
 * with the child's status. The child is started asynchronously so that this process stays able to take signals: each
 * one it receives is passed on (the server drains and stops), and it exits only once the child has, so nothing is
 * left running behind it.
 */
export function ensureSupportedNode(script) {
  if (Number(process.versions.node.split('.')[0]) >= 22) return Promise.resolve();
  if (!fs.existsSync(PINNED_NODE)) {
    process.stderr.write(`Node.js ${process.version} is too old (22 or newer is needed) and ${PINNED_NODE} is missing: run npm ci\n`);
    process.exit(1);
  }
  const child = spawn(PINNED_NODE, [fileURLToPath(script), ...process.argv.slice(2)], { stdio: 'inherit' });
  const forward = (signal) => child.kill(signal);
  for (const signal of FORWARDED) process.on(signal, forward);
  child.on('error', (err) => {
    process.stderr.write(`could not run ${PINNED_NODE}: ${err.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    for (const s of FORWARDED) process.off(s, forward);
    // Killed by a signal: die of the same one, so whoever started this process sees what happened.
    if (signal) process.kill(process.pid, signal);
    process.exit(code ?? 1);
  });
  return new Promise(() => undefined);
}
