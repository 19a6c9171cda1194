// Runs WAL checkpoints on its own thread and connection, so that the request
// path does not pay for copying the WAL back into the database file while
// this thread keeps up (past the bound the writer checkpoints itself:
// SqliteDatabase.startCheckpointer).
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const db = new Database(workerData.path);
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // A busy database is checkpointed on the next tick.
  }
}, workerData.intervalMs);

parentPort.on('message', (msg) => {
  if (msg === 'stop') {
    clearInterval(timer);
    try {
      db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // Closing still leaves a consistent database; the WAL is replayed on open.
    }
    db.close();
    parentPort.postMessage('stopped');
  }
});
