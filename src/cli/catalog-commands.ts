import fs from 'node:fs/promises';
import { Command } from 'commander';
import { SingleBar } from 'cli-progress';
import { CliError } from './client.ts';
import { EXIT } from './exit-codes.ts';
import { clientOf, withServerOptions } from './global-options.ts';
import { bold, isTty, printJson, red } from './output.ts';

type Json = Record<string, unknown>;
const BATCH = 100;

/**
 * Turns one item of an ingest file into MCPs: an MCP (aspect as a JSON string, or
 * as `{"json": {...}}` the way DataHub's file sink writes it), or an MCE snapshot.
 */
export function toProposals(item: unknown, index: number): Json[] {
  if (typeof item !== 'object' || item === null) throw new CliError(`item ${index}: not an object`);
  const o = item as Json;
  if (typeof o.entityUrn === 'string') {
    const aspect = o.aspect as Json | undefined;
    if (aspect && 'json' in aspect) return [{ ...o, aspect: { value: JSON.stringify(aspect.json), contentType: 'application/json' } }];
    return [o];
  }
  const snapshot = o.proposedSnapshot as Json | undefined;
  if (snapshot && typeof snapshot === 'object') {
    const [cls, body] = Object.entries(snapshot)[0] ?? [];
    const b = body as { urn?: string; aspects?: Json[] } | undefined;
    if (!cls || !b?.urn || !Array.isArray(b.aspects)) throw new CliError(`item ${index}: proposedSnapshot has no urn or aspects`);
    const entityType = b.urn.split(':')[2];
    return b.aspects.map((a) => {
      const [aspectClass, value] = Object.entries(a)[0]!;
      const simple = aspectClass.split('.').pop()!;
      return {
        entityType,
        entityUrn: b.urn,
        changeType: 'UPSERT',
        aspectName: simple[0]!.toLowerCase() + simple.slice(1),
        aspect: { value: JSON.stringify(value), contentType: 'application/json' },
      };
    });
  }
  throw new CliError(`item ${index}: neither a MetadataChangeProposal (entityUrn) nor an MCE (proposedSnapshot)`);
}

async function ingest(file: string, _opts: unknown, cmd: Command): Promise<void> {
  const { client, json } = clientOf(cmd);
  let items: unknown;
  try {
    items = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (e) {
    throw new CliError(`${file}: ${(e as Error).message}`);
  }
  if (!Array.isArray(items)) throw new CliError(`${file}: expected a JSON array of MetadataChangeProposals or MCEs`);
  const proposals = items.flatMap((item, i) => toProposals(item, i));
  const bar = isTty() && !json ? new SingleBar({ format: 'ingesting [{bar}] {value}/{total} proposals, {failed} failed' }) : undefined;
  bar?.start(proposals.length, 0, { failed: 0 });
  const failures: Array<{ index: number; urn: unknown; message: string }> = [];
  for (let i = 0; i < proposals.length; i += BATCH) {
    const batch = proposals.slice(i, i + BATCH);
    try {
      await client.action('aspects', 'ingestProposalBatch', { proposals: batch, async: 'false' });
    } catch (batchError) {
      if (batch.length === 1 || String((batchError as Error).message).startsWith('401')) throw batchError;
      // A batch is all or nothing: replay it one by one to name the items that fail.
      for (const [j, p] of batch.entries()) {
        try {
          await client.action('aspects', 'ingestProposal', { proposal: p, async: 'false' });
        } catch (e) {
          failures.push({ index: i + j, urn: p.entityUrn, message: (e as Error).message });
        }
      }
    }
    bar?.update(Math.min(i + BATCH, proposals.length), { failed: failures.length });
  }
  bar?.stop();
  const summary = { proposals: proposals.length, succeeded: proposals.length - failures.length, failed: failures };
  if (json) printJson(summary);
  else {
    for (const f of failures) process.stderr.write(`${red('failed')} #${f.index} ${String(f.urn)}: ${f.message}\n`);
    process.stdout.write(
      `${bold(String(summary.succeeded))} of ${proposals.length} proposals ingested${failures.length ? `, ${failures.length} failed` : ''}\n`,
    );
  }
  if (failures.length) process.exitCode = EXIT.FAILURE;
}

async function get(urn: string, _opts: unknown, cmd: Command): Promise<void> {
  const { client, json } = clientOf(cmd);
  const entity = await client.get<{ value: Record<string, { urn: string; aspects: Array<Record<string, unknown>> }> }>(
    `/entities/${encodeURIComponent(urn)}`,
  );
  if (json) return printJson(entity.value);
  const [snapshotClass, body] = Object.entries(entity.value)[0]!;
  process.stdout.write(`${bold(body.urn)} ${snapshotClass.split('.').pop()}\n`);
  for (const a of body.aspects) {
    const [cls, value] = Object.entries(a)[0]!;
    process.stdout.write(`\n${bold(cls.split('.').pop()!)}\n${JSON.stringify(value, null, 2)}\n`);
  }
}

export function catalogCommands(): Command[] {
  const getCmd = withServerOptions(new Command('get'))
    .description('Show an entity with all its aspects')
    .argument('<urn>', 'the entity urn')
    .addHelpText(
      'after',
      "\nExamples:\n  $ almanac get 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)'\n  $ almanac get urn:li:corpuser:datahub --json",
    )
    .action(get);
  const ingestCmd = withServerOptions(new Command('ingest'))
    .description("Ingest a JSON array of MetadataChangeProposals, or DataHub's file-sink format, reporting each failure")
    .argument('<file>', 'the JSON file')
    .addHelpText('after', '\nExamples:\n  $ almanac ingest mcps.json\n  $ almanac ingest datahub-file-sink-output.json --json')
    .action(ingest);
  return [getCmd, ingestCmd];
}
