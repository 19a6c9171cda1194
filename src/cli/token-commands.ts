import { Command, Option } from 'commander';
import { openServices } from '../app.ts';
import { ADMIN_URN } from '../auth/principal.ts';
import { TOKEN_DURATIONS, parseTokenDuration } from '../auth/durations.ts';
import { loadConfig } from '../config.ts';

interface CreateOptions {
  actor: string;
  duration: string;
  name?: string;
  description?: string;
}

/** Bootstrap: mints a personal access token straight into the configured database, no server needed. */
async function createToken(opts: CreateOptions): Promise<void> {
  const duration = parseTokenDuration(opts.duration);
  const services = await openServices(loadConfig());
  try {
    await services.catalog.ensureUser(opts.actor, ADMIN_URN);
    const { token } = await services.tokens.mint({
      actorUrn: opts.actor,
      ownerUrn: opts.actor,
      duration,
      name: opts.name ?? `almanac cli token (${new Date().toISOString()})`,
      description: opts.description,
    });
    process.stdout.write(`${token}\n`);
  } finally {
    await services.store.close();
  }
}

export function tokenCommands(): Command {
  const token = new Command('token').description('Personal access tokens');
  token
    .command('create')
    .description('Mint a personal access token directly against the configured database (bootstrap; no server needed)')
    .requiredOption('--actor <urn>', 'user the token acts as; created if missing', ADMIN_URN)
    .addOption(new Option('--duration <duration>', 'how long the token lives').choices(Object.keys(TOKEN_DURATIONS)).default('ONE_DAY'))
    .option('--name <name>', 'a name to recognise the token by')
    .option('--description <text>', 'what the token is for')
    .addHelpText('after', '\nExamples:\n  $ npx almanac token create --actor urn:li:corpuser:datahub\n  $ TOKEN=$(npx almanac token create --actor urn:li:corpuser:datahub --duration NO_EXPIRY --name ci)')
    .action(createToken);
  return token;
}
