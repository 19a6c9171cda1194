import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { DatabaseConfig } from '../../config.ts';

/** Who serves a SQLite file, as the server wrote it beside the database. */
export interface ServerLockHolder {
  readonly pid: number;
  readonly host: string;
  readonly startedAt: string;
  readonly address?: string;
}

/** Held by the one server process of a SQLite file until it stops (or dies: the operating system lets go of it). */
export interface ServerLock {
  /** Records where the server listens, for the message a second server gives. */
  describe(address: string): void;
  release(): void;
}

/** A second server on a SQLite file: refused, naming the process that serves it and how to stop it. */
export class DatabaseServedError extends Error {
  constructor(
    readonly file: string,
    readonly holder: ServerLockHolder | undefined,
  ) {
    const who = holder
      ? `process ${holder.pid} on ${holder.host} (started ${holder.startedAt}${holder.address ? `, listening at ${holder.address}` : ''})`
      : 'another process (still starting)';
    const stop = holder ? `stop it first (kill -TERM ${holder.pid}, or stop its service)` : 'stop it first';
    super(
      `the SQLite database ${file} is already served by ${who}. SQLite serves one server process: ${stop}, or set ALMANAC_DATABASE_URL ` +
        'to another file (or to PostgreSQL for several processes). CLI commands such as almanac user create keep working beside it.',
    );
    this.name = 'DatabaseServedError';
  }
}

/**
 * Makes the calling process the one server of a SQLite file, or throws DatabaseServedError. The lock is SQLite's own
 * (an exclusive lock on `<file>-server.lock`, held by an open connection), so it ends with the process however it
 * ends, and a reused pid never keeps it. CLI commands open the database itself, not this file, so they are not
 * blocked. `<file>-server.json` says who holds it. PostgreSQL and in-memory databases need no lock: undefined.
 */
export function holdServerLock(config: DatabaseConfig): ServerLock | undefined {
  if (config.kind !== 'sqlite' || config.path === ':memory:') return undefined;
  const file = config.path;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const infoFile = `${file}-server.json`;
  const lock = new Database(`${file}-server.lock`, { timeout: 0 });
  lock.pragma('locking_mode = EXCLUSIVE');
  try {
    // In exclusive locking mode the lock taken by this transaction is kept until the connection closes.
    lock.exec('BEGIN EXCLUSIVE; COMMIT');
  } catch (e) {
    lock.close();
    if ((e as { code?: string }).code !== 'SQLITE_BUSY') throw e;
    throw new DatabaseServedError(file, readHolder(infoFile));
  }
  const holder: ServerLockHolder = { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString() };
  writeHolder(infoFile, holder);
  return {
    describe: (address) => writeHolder(infoFile, { ...holder, address }),
    release: () => {
      fs.rmSync(infoFile, { force: true });
      lock.close();
    },
  };
}

function writeHolder(infoFile: string, holder: ServerLockHolder): void {
  // Written whole, then renamed, so a second server never reads half of it.
  const tmp = `${infoFile}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(holder)}\n`);
  fs.renameSync(tmp, infoFile);
}

function readHolder(infoFile: string): ServerLockHolder | undefined {
  try {
    return JSON.parse(fs.readFileSync(infoFile, 'utf8')) as ServerLockHolder;
  } catch {
    return undefined;
  }
}
