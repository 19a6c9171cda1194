import { Command } from 'commander';
import { usageError } from './exit-codes.ts';
import { clientOf, withServerOptions } from './global-options.ts';
import { bold, printJson } from './output.ts';

interface DeleteOptions {
  urn: string;
  aspect?: string;
  startTime?: string;
  endTime?: string;
  hard?: boolean;
}

/** Epoch milliseconds, or an ISO date or date-time (UTC when no zone is given). */
function parseTime(value: string, flag: string): number {
  if (/^-?\d+$/.test(value)) return Number(value);
  const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (!Number.isFinite(t)) throw usageError(`${flag} must be epoch milliseconds or a date like 2026-01-01, got "${value}"`);
  return t;
}

/**
 * `datahub delete`'s single-urn forms: without --hard, a soft delete (status
 * removed); with --hard, the server's entities?action=delete, the same domain
 * call as every other client.
 */
async function remove(opts: DeleteOptions, cmd: Command): Promise<void> {
  const { client, json } = clientOf(cmd);
  const window = opts.startTime !== undefined || opts.endTime !== undefined;
  if (window && opts.aspect === undefined) throw usageError('--start-time and --end-time need --aspect (a timeseries aspect)');
  if (!opts.hard) {
    if (opts.aspect !== undefined) throw usageError('an aspect cannot be soft-deleted: add --hard');
    const entityType = opts.urn.split(':')[2] ?? '';
    const proposal = {
      entityType,
      entityUrn: opts.urn,
      changeType: 'UPSERT',
      aspectName: 'status',
      aspect: { value: '{"removed": true}', contentType: 'application/json' },
    };
    await client.action('aspects', 'ingestProposal', { proposal, async: 'false' });
    if (json) printJson({ urn: opts.urn, softDeleted: true });
    else process.stdout.write(`Soft-deleted ${bold(opts.urn)} (status removed: true; undo by writing status removed: false)\n`);
    return;
  }
  const params = {
    urn: opts.urn,
    ...(opts.aspect !== undefined ? { aspectName: opts.aspect } : {}),
    ...(opts.startTime !== undefined ? { startTimeMillis: parseTime(opts.startTime, '--start-time') } : {}),
    ...(opts.endTime !== undefined ? { endTimeMillis: parseTime(opts.endTime, '--end-time') } : {}),
  };
  const result = await client.action<{ urn: string; rows: number; timeseriesRows?: number }>('entities', 'delete', params);
  if (json) return printJson(result);
  const what = opts.aspect === undefined ? 'the entity' : `aspect ${opts.aspect}`;
  process.stdout.write(`Hard-deleted ${what} of ${bold(opts.urn)}: ${result.rows} aspect rows, ${result.timeseriesRows ?? 0} timeseries rows\n`);
}

export function deleteCommand(): Command {
  return withServerOptions(new Command('delete'))
    .description('Delete an entity (soft by default), or with --hard one aspect of it, a timeseries aspect optionally between two times')
    .requiredOption('--urn <urn>', 'the entity urn')
    .option('--aspect <name>', 'only this aspect (needs --hard)')
    .option('--start-time <time>', 'timeseries rows at or after this time (epoch ms or ISO date)')
    .option('--end-time <time>', 'timeseries rows at or before this time (epoch ms or ISO date)')
    .option('--hard', 'remove the rows for good instead of marking the entity removed')
    .addHelpText(
      'after',
      "\nExamples:\n  $ almanac delete --urn 'urn:li:dataset:(urn:li:dataPlatform:hive,db.old,PROD)'\n" +
        "  $ almanac delete --urn 'urn:li:dataset:(urn:li:dataPlatform:hive,db.old,PROD)' --hard\n" +
        "  $ almanac delete --urn 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)' --aspect datasetProfile --start-time 2026-01-01 --end-time 2026-01-31 --hard",
    )
    .action(remove);
}
