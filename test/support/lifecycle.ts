import { after, before } from 'node:test';
import type { DestinationStream } from 'pino';
import { openStore } from '../../src/storage/open-store.ts';
import type { Store } from '../../src/storage/store.ts';
import type { Backend, TestDatabase } from './databases.ts';
import { startTestServer, type TestServer } from './server.ts';

/** Registers hooks that open a migrated store on a fresh database of the backend, and close and drop it after. */
export function useStore(backend: Backend, onOpen: (store: Store, db: TestDatabase) => void): void {
  let db: TestDatabase | undefined;
  let store: Store | undefined;
  before(async () => {
    db = await backend.create();
    store = await openStore(db.config);
    onOpen(store, db);
  });
  after(async () => {
    await store?.database.close();
    await db?.drop();
  });
}

/** Registers hooks that start a real server on port 0 over a fresh database of the backend, and stop it after. */
export function useServer(
  backend: Backend,
  onStart: (server: TestServer, db: TestDatabase) => void | Promise<void>,
  env: Record<string, string> = {},
  logTo?: DestinationStream,
): void {
  let db: TestDatabase | undefined;
  let server: TestServer | undefined;
  before(async () => {
    db = await backend.create();
    server = await startTestServer(db, env, logTo);
    await onStart(server, db);
  });
  after(async () => {
    await server?.close();
    await db?.drop();
  });
}
