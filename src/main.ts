import { createApp } from './app.ts';
import { ConfigError, describeDatabase, loadConfig } from './config.ts';
import { createLogger } from './logger.ts';

/** `npm start`: config -> logger -> store -> server -> listen; SIGTERM drains and closes. */
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
  const app = await createApp(config, logger);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down: draining requests');
    app.close().then(
      () => {
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
  logger.info({ address, backend: app.services.store.backend, database: describeDatabase(config.database), console: `${address}/` }, 'almanac ready');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error(`almanac: failed to start: ${(err as Error).message}`);
    process.exit(1);
  });
}
