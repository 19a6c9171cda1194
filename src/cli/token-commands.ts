import { Command, Option } from 'commander';
import type { Services } from '../app.ts';
import { ADMIN_URN, type Principal } from '../auth/principal.ts';
import { TOKEN_DURATIONS, parseTokenDuration } from '../auth/durations.ts';
import fs from 'node:fs';
import { describeDatabase, loadConfig } from '../config.ts';
import { CliError } from './client.ts';
import { EXIT } from './exit-codes.ts';

/** Commands run against the database act as the operator who holds it: the administrator. */
const OPERATOR: Principal = { actorUrn: ADMIN_URN, kind: 'system' };

/**
 * Opens the configured database for a bootstrap command, saying which on
 * stderr; a SQLite file that does not exist yet is an error, never created here.
 */
export async function withServices<T>(fn: (s: Services) => Promise<T>, options: { readonly create?: boolean } = {}): Promise<T> {
  const config = loadConfig();
  process.stderr.write(`almanac: database ${describeDatabase(config.database)}\n`);
  if (!options.create && config.database.kind === 'sqlite' && config.database.path !== ':memory:' && !fs.existsSync(config.database.path)) {
    throw new CliError(
      `no database at ${config.database.path}: start the server once (npm start) to create it, or point ALMANAC_DATABASE_URL (or ALMANAC_HOME) at the server's`,
    );
  }
  // Loaded on use, as the server is: most commands never open the database.
  const { openServices } = await import('../app.ts');
  let services: Services;
  try {
    services = await openServices(config);
  } catch (e) {
    throw new CliError(`cannot open ${describeDatabase(config.database)}: ${(e as Error).message}`, EXIT.UNAVAILABLE);
  }
  try {
    return await fn(services);
  } finally {
    await services.store.database.close();
  }
}

interface CreateOptions {
  init?: boolean;
  actor: string;
  duration: string;
  name?: string;
  description?: string;
}

/** Bootstrap: mints a personal access token straight into the configured database, no server needed. */
const createToken = (opts: CreateOptions) =>
  withServices(
    async (s) => {
      const duration = parseTokenDuration(opts.duration);
      await s.catalog.ensureUser(opts.actor, ADMIN_URN);
      const { token } = await s.accessTokens.create(OPERATOR, {
        actorUrn: opts.actor,
        duration,
        name: opts.name ?? `almanac cli token (${new Date().toISOString()})`,
        description: opts.description,
      });
      process.stdout.write(`${token}\n`);
    },
    { create: opts.init === true },
  );

const listTokens = (opts: { owner?: string; json?: boolean }) =>
  withServices(async (s) => {
    const page = await s.accessTokens.list(OPERATOR, { start: 0, count: 1000, ownerUrn: opts.owner });
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(page, null, 2)}\n`);
      return;
    }
    for (const t of page.tokens) {
      const expires = t.expiresAt === null ? 'never' : new Date(t.expiresAt).toISOString();
      process.stdout.write(`${t.id}\t${t.actorUrn}\t${t.name}\texpires ${expires}\n`);
    }
  });

const revokeToken = (id: string) =>
  withServices(async (s) => {
    await s.accessTokens.revoke(OPERATOR, id);
    process.stdout.write(`revoked ${id}\n`);
  });

export function tokenCommands(): Command {
  const token = new Command('token').description('Personal access tokens (run against the configured database)');
  token
    .command('create')
    .description('Mint a personal access token directly against the configured database (bootstrap; no server needed)')
    .requiredOption('--actor <urn>', 'user the token acts as; created if missing', ADMIN_URN)
    .addOption(new Option('--duration <duration>', 'how long the token lives').choices(Object.keys(TOKEN_DURATIONS)).default('ONE_DAY'))
    .option('--name <name>', 'a name to recognise the token by')
    .option('--description <text>', 'what the token is for')
    .option('--init', 'create the database if it does not exist yet (a bootstrap before the first start)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ almanac token create --actor urn:li:corpuser:datahub\n  $ export DATAHUB_GMS_TOKEN=$(almanac token create --actor urn:li:corpuser:datahub --duration NO_EXPIRY --name ci)',
    )
    .action(createToken);
  token
    .command('list')
    .description('List access tokens, newest expiry first (ids are what revoke takes)')
    .option('--owner <urn>', 'only tokens created by this user')
    .option('--json', 'machine-readable output')
    .addHelpText('after', '\nExamples:\n  $ almanac token list\n  $ almanac token list --owner urn:li:corpuser:alice --json')
    .action(listTokens);
  token
    .command('revoke')
    .description('Revoke an access token by its id; it stops working on the next request')
    .argument('<id>', 'the token id shown by `token list`')
    .addHelpText('after', "\nExample:\n  $ almanac token revoke 'k3yH4sh...='")
    .action(revokeToken);
  return token;
}
