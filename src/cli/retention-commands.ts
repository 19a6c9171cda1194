import { Command } from 'commander';
import type { RetentionPolicyWire, RetentionPreviewWire, RetentionRunWire } from '../api/wire/retention.ts';
import { usageError, EXIT } from './exit-codes.ts';
import { clientOf, withServerOptions } from './global-options.ts';
import { bold, green, isoTime, parseAge, printJson, printTable, red, yellow } from './output.ts';

const RUN_WAIT_MILLIS = 30_000;

/** An age in seconds as people write it back: 90d, 12h, 30m or seconds. */
function age(seconds: number | undefined): string {
  if (seconds === undefined) return '';
  if (seconds % 86_400 === 0) return `${seconds / 86_400}d`;
  if (seconds % 3_600 === 0) return `${seconds / 3_600}h`;
  if (seconds % 60 === 0) return `${seconds / 60}m`;
  return `${seconds}s`;
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
const policyPath = (entity: string, aspect: string) => `/api/retention/${encodeURIComponent(entity)}/${encodeURIComponent(aspect)}`;

async function list(_opts: unknown, cmd: Command): Promise<void> {
  const { client, json } = clientOf(cmd);
  const { policies } = await client.get<{ policies: RetentionPolicyWire[] }>('/api/retention');
  if (json) return printJson(policies);
  if (policies.length === 0) {
    process.stdout.write('No retention policy: every version and every timeseries row is kept. Add one with `almanac retention set`.\n');
    return;
  }
  printTable(
    ['entity', 'aspect', 'max versions', 'max age', 'source', 'updated'],
    policies.map((p) => [
      p.entity,
      p.aspect,
      String(p.config.retention.version?.maxVersions ?? ''),
      age(p.config.retention.time?.maxAgeInSeconds),
      p.source,
      `${isoTime(p.updatedAt)} by ${p.updatedBy}`,
    ]),
  );
}

interface SetOptions {
  entity: string;
  aspect: string;
  maxVersions?: string;
  maxAge?: string;
}

async function set(opts: SetOptions, cmd: Command): Promise<void> {
  const { client, json } = clientOf(cmd);
  if (opts.maxVersions === undefined && opts.maxAge === undefined) throw usageError('give --max-versions, --max-age or both');
  const maxVersions = opts.maxVersions === undefined ? undefined : Number(opts.maxVersions);
  if (maxVersions !== undefined && (!Number.isSafeInteger(maxVersions) || maxVersions < 1)) {
    throw usageError(`--max-versions must be a positive integer, got "${opts.maxVersions}"`);
  }
  const maxAgeInSeconds = opts.maxAge === undefined ? undefined : parseAge(opts.maxAge, '--max-age') / 1000;
  const policy = await client.post<RetentionPolicyWire>('/api/retention', {
    entity: opts.entity,
    aspect: opts.aspect,
    config: {
      retention: {
        ...(maxVersions !== undefined ? { version: { maxVersions } } : {}),
        ...(maxAgeInSeconds !== undefined ? { time: { maxAgeInSeconds } } : {}),
      },
    },
  });
  if (json) return printJson(policy);
  process.stdout.write(
    `${green('set')} retention for ${bold(`${policy.entity} ${policy.aspect}`)}. See what it would delete now: almanac retention preview\n`,
  );
}

async function remove(opts: { entity: string; aspect: string }, cmd: Command): Promise<void> {
  const { client, json } = clientOf(cmd);
  const out = await client.delete<unknown>(policyPath(opts.entity, opts.aspect));
  if (json) return printJson(out);
  process.stdout.write(`${green('deleted')} the retention policy of ${opts.entity} ${opts.aspect}\n`);
}

async function preview(_opts: unknown, cmd: Command): Promise<void> {
  const { client, json } = clientOf(cmd);
  const out = await client.get<{ maxDeletePercent: number; preview: RetentionPreviewWire[] }>('/api/retention/preview');
  if (json) return printJson(out);
  if (out.preview.length === 0) {
    process.stdout.write('Nothing to delete: no policy governs stored timeseries rows or earlier versions.\n');
    return;
  }
  printTable(
    ['policy', 'kind', 'entityType', 'aspect', 'would delete', 'share', 'bytes', 'oldest kept', 'newest kept', 'note'],
    out.preview.map((p) => [
      `${p.policy.entity} ${p.policy.aspect}`,
      p.kind,
      p.entityType,
      p.aspect,
      `${p.delete.toLocaleString('en-US')} of ${p.total.toLocaleString('en-US')} ${p.kind === 'timeseries' ? 'rows' : 'versions'}`,
      `${p.sharePercent.toFixed(2)}%`,
      `${p.bytesEstimated ? '~' : ''}${mb(p.bytes)}`,
      isoTime(p.oldestKeptMillis),
      isoTime(p.newestKeptMillis),
      p.needsConfirmation ? yellow(`over ${out.maxDeletePercent}%: needs --confirm`) : '',
    ]),
  );
}

function printRun(run: RetentionRunWire): void {
  const state = run.state === 'completed' ? green(run.state) : run.state === 'running' ? yellow(run.state) : red(run.state);
  process.stdout.write(
    `${bold(run.id)} ${state} (${run.trigger}${run.confirm ? ', confirmed' : ''}): ${run.versionsDeleted} earlier versions deleted\n`,
  );
  for (const o of run.outcomes) {
    const what =
      o.kind === 'timeseries'
        ? `${o.rowsToDelete} of ${o.totalRows} rows before ${isoTime(o.cutoffMillis ?? null)}${o.taskId ? `, task ${o.taskId}` : ''}`
        : `${o.versionsDeleted} earlier versions`;
    const outcome = o.outcome === 'skipped' ? yellow(o.outcome) : o.outcome;
    process.stdout.write(`  ${o.entityType} ${o.aspect}: ${outcome}, ${what}${o.reason ? ` (${o.reason})` : ''}\n`);
  }
  if (run.error) process.stdout.write(`${red('error')}: ${run.error}\n`);
}

async function run(opts: { entity?: string; aspect?: string; confirm?: boolean }, cmd: Command): Promise<void> {
  const { client, json } = clientOf(cmd);
  if ((opts.entity === undefined) !== (opts.aspect === undefined)) throw usageError('--entity and --aspect name one policy: give both or neither');
  let started = await client.post<RetentionRunWire>('/api/retention/run', {
    ...(opts.entity !== undefined ? { entity: opts.entity, aspect: opts.aspect } : {}),
    ...(opts.confirm ? { confirm: true } : {}),
  });
  const until = Date.now() + RUN_WAIT_MILLIS;
  while (started.state === 'running' && Date.now() < until) {
    started = await client.get<RetentionRunWire>(`/api/retention/runs/${encodeURIComponent(started.id)}?waitMillis=1000`);
  }
  if (json) return printJson(started);
  printRun(started);
  if (started.state !== 'completed' && started.state !== 'running') process.exitCode = EXIT.FAILURE;
}

async function history(opts: { limit: string }, cmd: Command): Promise<void> {
  const { client, json } = clientOf(cmd);
  const { runs } = await client.get<{ runs: RetentionRunWire[] }>(`/api/retention/runs?limit=${encodeURIComponent(opts.limit)}`);
  if (json) return printJson(runs);
  printTable(
    ['run', 'trigger', 'state', 'started', 'truncations', 'skipped', 'versions deleted'],
    runs.map((r) => [
      r.id,
      r.trigger,
      r.state,
      isoTime(r.startedAt),
      String(r.outcomes.filter((o) => o.outcome === 'started').length),
      String(r.outcomes.filter((o) => o.outcome === 'skipped').length),
      String(r.versionsDeleted),
    ]),
  );
}

export function retentionCommands(): Command {
  const retention = new Command('retention').description('Retention policies: keep N versions and/or what is younger than an age');
  retention.addCommand(
    withServerOptions(new Command('list')).description('Every policy').addHelpText('after', '\nExample:\n  $ almanac retention list').action(list),
  );
  retention.addCommand(
    withServerOptions(new Command('set'))
      .description("Create or replace the policy of an entity type's aspect (* for all)")
      .requiredOption('--entity <type>', 'entity type, e.g. dataset, or * for all')
      .requiredOption('--aspect <aspect>', 'aspect, e.g. datasetProfile, or * for all')
      .option('--max-versions <n>', 'versioned aspects: keep at most n versions, the latest among them')
      .option('--max-age <age>', 'keep what is younger than this: 90d, 12h, 30m')
      .addHelpText(
        'after',
        "\nExamples:\n  $ almanac retention set --entity dataset --aspect datasetProfile --max-age 90d\n  $ almanac retention set --entity '*' --aspect '*' --max-versions 20",
      )
      .action(set),
  );
  retention.addCommand(
    withServerOptions(new Command('delete'))
      .description('Delete a policy; what it governed is kept from then on')
      .requiredOption('--entity <type>', 'entity type, or *')
      .requiredOption('--aspect <aspect>', 'aspect, or *')
      .addHelpText('after', '\nExample:\n  $ almanac retention delete --entity dataset --aspect datasetProfile')
      .action(remove),
  );
  retention.addCommand(
    withServerOptions(new Command('preview'))
      .description('What each policy would delete now: rows or versions, bytes, oldest and newest kept')
      .addHelpText('after', '\nExample:\n  $ almanac retention preview')
      .action(preview),
  );
  retention.addCommand(
    withServerOptions(new Command('run'))
      .description('Apply the policies now (the server also runs them daily at ALMANAC_RETENTION_SCHEDULE)')
      .option('--entity <type>', 'only the policy of this entity type (with --aspect)')
      .option('--aspect <aspect>', 'only the policy of this aspect (with --entity)')
      .option('--confirm', 'also run indices that would lose more than ALMANAC_RETENTION_MAX_DELETE_PERCENT of their rows')
      .addHelpText('after', '\nExamples:\n  $ almanac retention run\n  $ almanac retention run --entity dataset --aspect datasetProfile --confirm')
      .action(run),
  );
  retention.addCommand(
    withServerOptions(new Command('history'))
      .description('Recent retention runs, newest first')
      .option('--limit <n>', 'how many', '20')
      .addHelpText('after', '\nExample:\n  $ almanac retention history')
      .action(history),
  );
  return retention;
}
