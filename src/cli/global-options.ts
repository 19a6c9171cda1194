import type { Command } from 'commander';
import { GmsClient } from './client.ts';

export interface GlobalOptions {
  server?: string;
  token?: string;
  json?: boolean;
}

/** Adds the options every server command shares. */
export function withServerOptions(cmd: Command): Command {
  return cmd
    .option('--server <url>', 'Almanac (or DataHub GMS) address; default $DATAHUB_GMS_URL or http://localhost:8080')
    .option('--token <token>', 'personal access token; default $DATAHUB_GMS_TOKEN')
    .option('--json', 'machine-readable output');
}

export function clientOf(cmd: Command): { client: GmsClient; json: boolean } {
  const opts = cmd.optsWithGlobals<GlobalOptions>();
  return { client: new GmsClient({ server: opts.server, token: opts.token }), json: opts.json === true };
}
