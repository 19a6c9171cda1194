import fs from 'node:fs/promises';
import { Command } from 'commander';
import { CliError } from './client.ts';
import { usageError } from './exit-codes.ts';
import { clientOf, withServerOptions } from './global-options.ts';
import { bold, isoDate, isoTime, parseDate, printJson, printTable, yellow } from './output.ts';

const BATCH = `mutation batch($input: BatchUpdateDeprecationInput!) { batchUpdateDeprecation(input: $input) }`;
const HISTORY = `query history($urn: String!, $limit: Int) {
  dataset(urn: $urn) { urn deprecationHistory(limit: $limit) { version deprecated note decommissionTime replacement actor time } }
}`;

interface DeprecateOptions {
  note?: string;
  decommission?: string;
  replacement?: string;
  file?: string;
}

/** Urns from the arguments and from a file (one per line, # comments allowed). */
async function collectUrns(urns: string[], file: string | undefined): Promise<string[]> {
  const fromFile = file
    ? (await fs.readFile(file, 'utf8').catch((e: Error) => Promise.reject(new CliError(`${file}: ${e.message}`))))
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'))
    : [];
  const all = [...new Set([...urns, ...fromFile])];
  if (all.length === 0) throw usageError('give at least one urn, or --file');
  return all;
}

async function setDeprecation(deprecated: boolean, urns: string[], opts: DeprecateOptions, cmd: Command): Promise<void> {
  const { client, json } = clientOf(cmd);
  const resources = (await collectUrns(urns, opts.file)).map((resourceUrn) => ({ resourceUrn }));
  const input = {
    deprecated,
    resources,
    ...(opts.note !== undefined ? { note: opts.note } : {}),
    ...(opts.decommission !== undefined ? { decommissionTime: parseDate(opts.decommission, '--decommission') } : {}),
    ...(opts.replacement !== undefined ? { replacement: opts.replacement } : {}),
  };
  const data = await client.graphql<{ batchUpdateDeprecation: boolean }>(BATCH, { input });
  if (json) return printJson({ updated: resources.map((r) => r.resourceUrn), deprecated, result: data.batchUpdateDeprecation });
  process.stdout.write(`${deprecated ? yellow('deprecated') : 'undeprecated'} ${resources.length} entit${resources.length === 1 ? 'y' : 'ies'}\n`);
}

interface HistoryEntry {
  version: number;
  deprecated: boolean;
  note: string | null;
  decommissionTime: number | null;
  replacement: string | null;
  actor: string | null;
  time: number;
}

async function history(urn: string, opts: { limit: string }, cmd: Command): Promise<void> {
  const { client, json } = clientOf(cmd);
  const data = await client.graphql<{ dataset: { deprecationHistory: HistoryEntry[] } | null }>(HISTORY, { urn, limit: Number(opts.limit) });
  if (!data.dataset) throw new CliError(`dataset ${urn} does not exist`);
  if (json) return printJson(data.dataset.deprecationHistory);
  if (data.dataset.deprecationHistory.length === 0) return void process.stdout.write(`${urn} was never deprecated\n`);
  printTable(
    ['when', 'who', 'state', 'note', 'decommission', 'replacement'],
    data.dataset.deprecationHistory.map((h) => [
      isoTime(h.time),
      h.actor ?? '-',
      h.deprecated ? bold('deprecated') : 'not deprecated',
      h.note ?? '',
      isoDate(h.decommissionTime),
      h.replacement ?? '-',
    ]),
  );
}

export function deprecationCommands(): Command[] {
  const deprecate = withServerOptions(new Command('deprecate'))
    .description('Mark datasets (or other entities) as deprecated, all in one batchUpdateDeprecation')
    .argument('[urns...]', 'entity urns')
    .option('--note <text>', 'why, and what to use instead')
    .option('--decommission <date>', 'planned decommission date, e.g. 2026-12-31')
    .option('--replacement <urn>', 'the entity to use instead')
    .option('--file <path>', 'read more urns from a file, one per line')
    .addHelpText(
      'after',
      "\nExamples:\n  $ almanac deprecate 'urn:li:dataset:(urn:li:dataPlatform:hive,db.old,PROD)' --note 'Use db.new' --decommission 2026-12-31\n  $ almanac deprecate --file urns.txt --replacement 'urn:li:dataset:(urn:li:dataPlatform:hive,db.new,PROD)'",
    )
    .action((urns: string[], opts: DeprecateOptions, cmd: Command) => setDeprecation(true, urns, opts, cmd));
  const undeprecate = withServerOptions(new Command('undeprecate'))
    .description('Clear the deprecation of entities')
    .argument('[urns...]', 'entity urns')
    .option('--file <path>', 'read more urns from a file, one per line')
    .addHelpText('after', "\nExample:\n  $ almanac undeprecate 'urn:li:dataset:(urn:li:dataPlatform:hive,db.old,PROD)'")
    .action((urns: string[], opts: DeprecateOptions, cmd: Command) => setDeprecation(false, urns, opts, cmd));
  const historyCmd = withServerOptions(new Command('deprecation-history'))
    .description('Who deprecated a dataset, when, and with what note: every version')
    .argument('<urn>', 'the dataset urn')
    .option('--limit <n>', 'at most this many versions', '100')
    .addHelpText('after', "\nExample:\n  $ almanac deprecation-history 'urn:li:dataset:(urn:li:dataPlatform:hive,db.old,PROD)'")
    .action(history);
  return [deprecate, undeprecate, historyCmd];
}
