import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT, startServerProcess } from '../support/process.ts';

const BIN = path.join(ROOT, 'bin/almanac.mjs');

/** A Node.js older than 22 on PATH: bin/almanac.mjs started by it runs itself again under the pinned Node. */
function oldNode(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'node');
    if (!fs.existsSync(candidate)) continue;
    const version = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    if (Number(version.split('.')[0]) < 22) return candidate;
  }
  return undefined;
}
const OLD_NODE = oldNode();

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Whether nothing listens on the port any more: this process can bind it. */
const portIsFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

/** A sign-in whose body is still arriving: the server has begun it, and a draining server answers it before it stops. */
function requestInFlight(address: string, username: string): { finish(): Promise<{ status: number; connection: string | undefined }> } {
  const req = http.request(`${address}/logIn`, { method: 'POST', headers: { 'Content-Type': 'application/json' } });
  const answered = new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      resolve({ status: res.statusCode!, connection: res.headers.connection });
    });
    req.on('error', reject);
  });
  // Each test signs in as its own name: the tests share one home, and failed sign-ins of one name are throttled.
  req.write(`{"username":${JSON.stringify(username)},`);
  return { finish: () => (req.end('"password":"not a password"}'), answered) };
}

/** Resolves once `condition` holds, checking every 20 ms; rejects after `ms`. */
async function until(condition: () => boolean, what: string, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; !condition(); await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
  }
}

const WAYS: ReadonlyArray<{ name: string; command: string; args: string[]; skip?: string }> = [
  { name: 'npm start', command: 'npm', args: ['start'] },
  { name: 'npm run almanac -- serve', command: 'npm', args: ['run', 'almanac', '--', 'serve'] },
  { name: 'almanac serve', command: process.execPath, args: [BIN, 'serve'] },
  {
    name: 'almanac serve re-run under the pinned Node',
    command: OLD_NODE ?? 'node',
    args: [BIN, 'serve'],
    skip: OLD_NODE ? undefined : 'no Node.js older than 22 on PATH, so bin/almanac.mjs never runs itself again here',
  },
];

describe('stopping the server with a signal', () => {
  let home: string;
  before(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-stop-'));
  });
  after(() => fs.rmSync(home, { recursive: true, force: true }));

  for (const way of WAYS) {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      it(
        `${signal} to the process ${way.name} started drains and stops the server, leaving no process and a free port`,
        { skip: way.skip },
        async () => {
          const server = await startServerProcess({ ALMANAC_HOME: home, ALMANAC_RETENTION_SCHEDULE: 'off' }, way.args, way.command);
          const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
            server.child.once('exit', (code, sig) => resolve({ code, signal: sig })),
          );
          // Listened for from the start: the output may close before the exit is seen.
          const outputClosed = new Promise((resolve) => server.child.stdout!.once('close', resolve));
          const port = Number(new URL(server.address).port);
          if (way.command !== process.execPath) assert.notEqual(server.serverPid, server.child.pid, 'a wrapper process started the server');

          const inFlight = requestInFlight(server.address, `nobody-${way.name.replace(/\W+/g, '-')}-${signal}`);
          // Answered after the sign-in's headers arrived, on the same event loop: the sign-in has begun by then.
          assert.equal((await fetch(`${server.address}/health`)).status, 200);

          server.child.kill(signal);
          await until(() => server.log.some((l) => l.msg === 'shutting down: draining requests'), 'the server to start draining');
          // Answered, and its connection closed, so no idle keep-alive socket holds the stop.
          assert.deepEqual(await inFlight.finish(), { status: 401, connection: 'close' });
          const status = await exited;
          // Its last log lines, read once the output closes (at once, unless something still holds it open).
          await Promise.race([outputClosed, new Promise((resolve) => setTimeout(resolve, 5000))]);

          assert.ok(
            server.log.some((l) => l.msg === 'stopped'),
            `the server drained and logged "stopped": ${JSON.stringify(server.log.slice(-3))}`,
          );
          assert.equal(alive(server.serverPid), false, `server process ${server.serverPid} is gone`);
          assert.equal(await portIsFree(port), true, `port ${port} is released`);
          // The wrapper ends with the server's status (0 after a clean stop) or by the same signal, never before it.
          assert.ok(status.code === 0 || status.signal === signal, `exit status ${JSON.stringify(status)}`);
        },
      );
    }
  }
});
