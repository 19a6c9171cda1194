import { createApp } from './app.ts';
import { ConfigError, describeDatabase, loadConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { DatabaseServedError, holdServerLock } from './storage/sqlite/server-lock.ts';

/** Logged at start while nobody can sign in to the console with a password. */
export const NO_USER_HINT =
  'No user can sign in yet: create one with printf \'%s\' "$PASSWORD" | almanac user create --username <name> --password-stdin --role Admin ' +
  '(same ALMANAC_HOME or ALMANAC_DATABASE_URL as the server), or sign in to the console with a token from almanac token create';

/** `npm start`: config -> logger -> the SQLite file's server lock -> store -> server -> listen; SIGTERM drains and closes. */
export async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  const logger = createLogger(config.logLevel);
  // Before anything opens the database: a second server on a SQLite file stops here, naming the one that serves it.
  let lock;
  try {
    lock = holdServerLock(config.database);
  } catch (e) {
    if (e instanceof DatabaseServedError) {
      console.error(`almanac: ${e.message}`);
      process.exit(1);
    }
    throw e;
  }
  const app = await createApp(config, logger);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down: draining requests');
    app.close().then(
      () => {
        lock?.release();
        logger.info('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  const address = await app.server.listen({ port: config.port, host: config.host });
  lock?.describe(address);
  logger.info({ address, backend: app.services.store.backend, database: describeDatabase(config.database), console: `${address}/` }, 'almanac ready');
  if (!(await app.services.login.anyoneCanSignIn())) logger.info({ console: `${address}/` }, NO_USER_HINT);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error(`almanac: failed to start: ${(err as Error).message}`);
    process.exit(1);
  });
}
