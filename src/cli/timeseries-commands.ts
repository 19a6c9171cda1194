import { Command } from 'commander';
import { SingleBar } from 'cli-progress';
import type { GmsClient } from './client.ts';
import { ask, interactive } from './prompt.ts';
import { EXIT, usageError } from './exit-codes.ts';
import { clientOf, withServerOptions } from './global-options.ts';
import { bold, green, isTty, isoDate, isoTime, parseAge, parseDate, printJson, printTable, red, yellow } from './output.ts';

import type { IndexSizeWire as IndexSize, TaskWire } from '../api/wire/timeseries.ts';

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;

/** The server's dry-run message is DataHub's, ending in DataHub's own instruction; the CLI gives its flag instead. */
const DATAHUB_INSTRUCTION = /\s*This was a dry run\. Run with dryRun = false to execute\.\s*$/;

/** The index's size is measured once the task's reclaim has dropped what it retired: wait that long, within reason. */
const RECLAIM_WAIT_MILLIS = 10_000;

async function indexSizes(_opts: unknown, cmd: Command): Promise<void> {
  const { client, json } = clientOf(cmd);
  const value = await client.action<{ indexSizes: IndexSize[] }>('operations', 'getIndexSizes', {});
  const sorted = [...value.indexSizes].sort((a, b) => b.sizeInMb - a.sizeInMb);
  if (json) return printJson(sorted);
  printTable(
    ['index', 'entityType', 'aspect', 'size', 'rows', 'oldest', 'newest'],
    sorted.map((i) => [
      i.indexName,
      i.entityName,
      i.aspectName,
      `${i.sizeInMb.toFixed(2)} MB`,
      i.rowCount.toLocaleString('en-US'),
      isoDate(i.oldestTimestampMillis ?? null),
      isoDate(i.newestTimestampMillis ?? null),
    ]),
  );
}

interface TruncateOptions {
  entityType: string;
  aspect: string;
  olderThan?: string;
  before?: string;
  execute?: boolean;
  batchSize?: string;
  timeout?: string;
  forceDeleteByQuery?: boolean;
  yes?: boolean;
  force?: boolean;
}

const positive = (value: string | undefined, flag: string): number | undefined => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw usageError(`${flag} must be a positive integer, got "${value}"`);
  return n;
};

/** Waits for a task with long polls, drawing a progress bar on a terminal; Ctrl-C asks whether to cancel or detach. */
async function follow(client: GmsClient, id: string, json: boolean): Promise<TaskWire> {
  const bar = isTty() && !json ? new SingleBar({ format: 'deleting [{bar}] {value}/{total} rows | {rate} rows/s | {elapsed}s elapsed' }) : undefined;
  const started = Date.now();
  let interrupted = false;
  const onSigint = () => {
    interrupted = true;
  };
  process.on('SIGINT', onSigint);
  try {
    let task = await client.get<TaskWire>(`/api/tasks/${encodeURIComponent(id)}`);
    bar?.start(Math.max(1, task.rowsToDelete), task.rowsDeleted, { rate: 0, elapsed: 0 });
    while (!task.completed) {
      if (interrupted) {
        bar?.stop();
        if (await askCancel(id)) {
          task = await client.post<TaskWire>(`/api/tasks/${encodeURIComponent(id)}/cancel`, {});
          process.stderr.write(`cancellation requested for ${id}\n`);
        } else {
          process.stderr.write(`detached; the task goes on. Follow it with: almanac task status ${id}\n`);
          return task;
        }
        interrupted = false;
      }
      task = await client.get<TaskWire>(`/api/tasks/${encodeURIComponent(id)}?waitMillis=500`);
      const elapsed = (Date.now() - started) / 1000;
      bar?.update(task.rowsDeleted, { rate: Math.round(task.rowsDeleted / Math.max(elapsed, 0.001)), elapsed: elapsed.toFixed(1) });
    }
    bar?.stop();
    return task;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

async function askCancel(id: string): Promise<boolean> {
  if (!interactive()) return true;
  return (await ask(`Cancel task ${id}? [c]ancel it / [d]etach and leave it running: `)).toLowerCase().startsWith('c');
}

/** More than this share of an index is not deleted without a yes (or --yes). */
const CONFIRM_ABOVE_PERCENT = 50;
const DRY_RUN_COUNTS = /^Delete (\d+) out of (\d+) rows \(([\d.]+)%\)/;

/** Shows the dry run and asks before a truncation deletes more than half of its index; --yes answers for scripts. */
async function confirmLargeTruncation(client: GmsClient, params: Record<string, unknown>, yes: boolean | undefined): Promise<void> {
  const dryRun = await client.action<string>('operations', 'truncateTimeseriesAspect', { ...params, dryRun: true });
  const m = DRY_RUN_COUNTS.exec(dryRun);
  if (!m || Number(m[3]) <= CONFIRM_ABOVE_PERCENT || yes) return;
  const what = `${Number(m[1]).toLocaleString('en-US')} of ${Number(m[2]).toLocaleString('en-US')} rows (${m[3]}%) of ${String(params.entityType)} ${String(params.aspect)}`;
  if (!interactive()) throw usageError(`this would delete ${what}, more than half of the index; add --yes to confirm`);
  process.stderr.write(`${dryRun.replace(DATAHUB_INSTRUCTION, '')}\n`);
  const answer = await ask(`Delete ${what}? [y/N] `);
  if (!/^y(es)?$/i.test(answer)) throw usageError('not confirmed; nothing was deleted');
}

/** A completed task's sizes appear when its reclaim ends; until then only the size the CLI saw before is known. */
async function awaitReclaim(client: GmsClient, task: TaskWire): Promise<TaskWire> {
  const until = Date.now() + RECLAIM_WAIT_MILLIS;
  while (task.state === 'completed' && task.sizeBytesAfter === null && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    task = await client.get<TaskWire>(`/api/tasks/${encodeURIComponent(task.id)}`);
  }
  return task;
}

function sizeClause(task: TaskWire, sizeBefore: number | undefined): string {
  if (task.sizeBytesBefore !== null && task.sizeBytesAfter !== null) return `; size ${mb(task.sizeBytesBefore)} -> ${mb(task.sizeBytesAfter)}`;
  const before = task.sizeBytesBefore ?? sizeBefore;
  if (before === undefined) return '';
  return task.state === 'completed' ? `; size ${mb(before)} before, freed space still being reclaimed` : `; size ${mb(before)} before`;
}

function printTask(task: TaskWire, sizeBefore?: number): void {
  const state = task.state === 'completed' ? green(task.state) : task.state === 'running' ? yellow(task.state) : red(task.state);
  process.stdout.write(
    `${bold(task.id)} ${state}: ${task.rowsDeleted.toLocaleString('en-US')} of ${task.rowsToDelete.toLocaleString('en-US')} rows deleted from ${task.index.indexName}` +
      ` (before ${isoTime(task.cutoffMillis)}, ${task.strategy}, ${task.batches} batches, ${(task.runTimeMillis / 1000).toFixed(1)} s${sizeClause(task, sizeBefore)})\n`,
  );
  if (task.error) process.stdout.write(`${red('error')}: ${task.error}\n`);
}

/** The index's size in bytes, from getIndexSizes (its sizeInMb is the engine's bytes / 1,000,000). */
async function indexBytes(client: GmsClient, entityType: string, aspect: string): Promise<number | undefined> {
  const { indexSizes } = await client.action<{ indexSizes: IndexSize[] }>('operations', 'getIndexSizes', {});
  const found = indexSizes.find((i) => i.entityName.toLowerCase() === entityType.toLowerCase() && i.aspectName === aspect.toLowerCase());
  return found === undefined ? undefined : found.sizeInMb * 1e6;
}

async function truncate(opts: TruncateOptions, cmd: Command): Promise<void> {
  const { client, json } = clientOf(cmd);
  if ((opts.olderThan === undefined) === (opts.before === undefined)) throw usageError('give exactly one of --older-than or --before');
  const endTimeMillis = opts.olderThan !== undefined ? Date.now() - parseAge(opts.olderThan) : parseDate(opts.before!, '--before');
  const params = {
    entityType: opts.entityType,
    aspect: opts.aspect,
    endTimeMillis,
    dryRun: !opts.execute,
    ...(opts.batchSize !== undefined ? { batchSize: positive(opts.batchSize, '--batch-size') } : {}),
    ...(opts.timeout !== undefined ? { timeoutSeconds: positive(opts.timeout, '--timeout') } : {}),
    ...(opts.forceDeleteByQuery ? { forceDeleteByQuery: true } : {}),
  };
  if (opts.execute) await confirmLargeTruncation(client, params, opts.yes);
  if (opts.force) Object.assign(params, { force: true });
  const sizeBefore = opts.execute ? await indexBytes(client, opts.entityType, opts.aspect) : undefined;
  const value = await client.action<string>('operations', 'truncateTimeseriesAspect', params);
  if (!opts.execute) {
    if (json) return printJson({ dryRun: true, endTimeMillis, message: value });
    process.stdout.write(
      `${yellow('DRY RUN')} (nothing was deleted) for rows before ${isoTime(endTimeMillis)}:\n${value.replace(DATAHUB_INSTRUCTION, '')}\nAdd --execute to delete them.\n`,
    );
    return;
  }
  const task = await awaitReclaim(client, await follow(client, value, json));
  if (json) printJson(task);
  else printTask(task, sizeBefore);
  if (task.completed && task.state !== 'completed') process.exitCode = EXIT.FAILURE;
}

async function taskStatus(id: string, _opts: unknown, cmd: Command): Promise<void> {
  const { client, json } = clientOf(cmd);
  const task = await client.get<TaskWire>(`/api/tasks/${encodeURIComponent(id)}`);
  if (json) return printJson(task);
  printTask(task);
}

async function taskList(opts: { limit: string }, cmd: Command): Promise<void> {
  const { client, json } = clientOf(cmd);
  const { tasks } = await client.get<{ tasks: TaskWire[] }>(`/api/tasks?limit=${encodeURIComponent(opts.limit)}`);
  if (json) return printJson(tasks);
  printTable(
    ['task', 'index', 'before', 'state', 'deleted', 'started'],
    tasks.map((t) => [t.id, t.index.indexName, isoTime(t.cutoffMillis), t.state, `${t.rowsDeleted}/${t.rowsToDelete}`, isoTime(t.startedAt)]),
  );
}

export function timeseriesCommands(): Command[] {
  const sizes = withServerOptions(new Command('index-sizes'))
    .description('Timeseries indices by size, with their rows and their oldest and newest dates')
    .addHelpText('after', '\nExamples:\n  $ almanac index-sizes\n  $ almanac index-sizes --json')
    .action(indexSizes);
  const truncateCmd = withServerOptions(new Command('truncate'))
    .description('Delete timeseries rows older than a cutoff: a dry run unless --execute')
    .requiredOption('--entity-type <type>', 'e.g. dataset')
    .requiredOption('--aspect <aspect>', 'e.g. datasetProfile')
    .option('--older-than <age>', 'cutoff relative to now: 90d, 12h, 30m')
    .option('--before <date>', 'absolute cutoff, e.g. 2026-01-01 (UTC)')
    .option('--execute', 'really delete, as a background task, and follow its progress')
    .option('--batch-size <n>', 'rows per transaction for --force-delete-by-query')
    .option('--timeout <seconds>', 'stop the task after this many seconds')
    .option('--force-delete-by-query', 'delete rows in batches instead of retiring whole day partitions')
    .option('--yes', 'do not ask before deleting more than half of the index (for scripts)')
    .option('--force', 'run even though the cutoff lies in the future (which deletes every row)')
    .addHelpText(
      'after',
      '\nWith --execute, a truncation that would delete more than half of the index shows the dry run and asks first.\n' +
        '\nExamples:\n  $ almanac truncate --entity-type dataset --aspect datasetProfile --older-than 90d\n  $ almanac truncate --entity-type dataset --aspect datasetProfile --before 2026-01-01 --execute',
    )
    .action(truncate);
  const task = new Command('task').description('Background tasks (truncations)');
  task.addCommand(
    withServerOptions(new Command('status'))
      .description('One task: state and progress')
      .argument('<id>', 'the task id, node:number')
      .addHelpText('after', '\nExample:\n  $ almanac task status almanac-1a2b:7')
      .action(taskStatus),
  );
  task.addCommand(
    withServerOptions(new Command('list'))
      .description('Recent tasks, newest first')
      .option('--limit <n>', 'how many', '20')
      .addHelpText('after', '\nExample:\n  $ almanac task list --limit 5')
      .action(taskList),
  );
  return [sizes, truncateCmd, task];
}
