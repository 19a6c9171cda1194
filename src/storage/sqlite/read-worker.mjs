// Runs one long read-only query on its own thread and connection, so that a
// walk over every page of a large file (dbstat) does not stall the request path.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const db = new Database(workerData.path, { readonly: true, fileMustExist: true });
try {
  db.pragma('busy_timeout = 5000');
  parentPort.postMessage({ rows: db.prepare(workerData.sql).all(...workerData.params) });
} catch (e) {
  parentPort.postMessage({ error: e instanceof Error ? e.message : String(e) });
} finally {
  db.close();
}
