import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.ts';
import { cliMessage } from './client.ts';
import { tokenCommands } from './token-commands.ts';
import { serveCommand } from './serve-command.ts';
import { userCommands } from './user-commands.ts';
import { catalogCommands } from './catalog-commands.ts';
import { deleteCommand } from './delete-command.ts';
import { deprecationCommands } from './deprecation-commands.ts';
import { policyCommands } from './policy-commands.ts';
import { timeseriesCommands } from './timeseries-commands.ts';

/** The `almanac` command line; every failure is one clear line on stderr and a non-zero exit. */
export async function run(argv: readonly string[]): Promise<void> {
  const program = new Command('almanac')
    .description('Almanac metadata catalog: server and administration commands')
    .showHelpAfterError()
    .exitOverride();
  program.addCommand(serveCommand());
  program.addCommand(tokenCommands());
  program.addCommand(userCommands());
  program.addCommand(policyCommands());
  for (const cmd of [...catalogCommands(), deleteCommand(), ...timeseriesCommands(), ...deprecationCommands()]) program.addCommand(cmd);
  try {
    await program.parseAsync(argv as string[]);
  } catch (e) {
    if (e instanceof CommanderError) process.exit(e.exitCode);
    const message = e instanceof ConfigError ? e.message : cliMessage(e);
    process.stderr.write(`almanac: ${message}\n`);
    process.exit(1);
  }
}
