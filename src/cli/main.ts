import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.ts';
import { cliMessage } from './client.ts';
import { EXIT, exitCodeOf } from './exit-codes.ts';
import pkg from '../../package.json' with { type: 'json' };
import { tokenCommands } from './token-commands.ts';
import { serveCommand } from './serve-command.ts';
import { userCommands } from './user-commands.ts';
import { catalogCommands } from './catalog-commands.ts';
import { deleteCommand } from './delete-command.ts';
import { deprecationCommands } from './deprecation-commands.ts';
import { policyCommands } from './policy-commands.ts';
import { retentionCommands } from './retention-commands.ts';
import { deprecationsCommand } from './deprecations-command.ts';
import { webhookCommands } from './webhook-commands.ts';
import { timeseriesCommands } from './timeseries-commands.ts';

/** Commander exits by itself unless told not to, and addCommand does not pass that on: tell every command. */
function overrideExits(cmd: Command): void {
  cmd.exitOverride();
  for (const sub of cmd.commands) overrideExits(sub);
}

/** The `almanac` command line; every failure is one clear line on stderr and an exit status from exit-codes.ts. */
export async function run(argv: readonly string[]): Promise<void> {
  const program = new Command('almanac')
    .description('Almanac metadata catalog: server and administration commands')
    .version(pkg.version, '-V, --version', 'print the version and exit')
    .showHelpAfterError();
  program.addCommand(serveCommand());
  program.addCommand(tokenCommands());
  program.addCommand(userCommands());
  program.addCommand(policyCommands());
  program.addCommand(retentionCommands());
  program.addCommand(webhookCommands());
  for (const cmd of [...catalogCommands(), deleteCommand(), ...timeseriesCommands(), ...deprecationCommands(), deprecationsCommand()])
    program.addCommand(cmd);
  overrideExits(program);
  try {
    await program.parseAsync(argv as string[]);
  } catch (e) {
    if (e instanceof CommanderError) process.exit(e.exitCode === 0 ? EXIT.OK : EXIT.USAGE); // help and --version exit 0; the rest is a bad command line
    if (e instanceof ConfigError) {
      process.stderr.write(`almanac: ${e.message}\n`);
      process.exit(EXIT.USAGE);
    }
    process.stderr.write(`almanac: ${cliMessage(e)}\n`);
    process.exit(exitCodeOf(e));
  }
}
