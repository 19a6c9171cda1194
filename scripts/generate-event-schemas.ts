// Writes src/catalog/events/generated/event-schemas.json: the Avro schemas of DataHub's MetadataChangeLog and
// PlatformEvent records, as the acryl-datahub package ships them. DataHub's events API serves each event as that
// record in Avro's JSON encoding (ExternalEventsService.convertGenericRecordToJson), so a field's union, its order
// and its type names come from these schemas (catalog/events/avro-json.ts encodes by them), never typed by hand.
//
//   npm run events:generate              reads the package installed in <repo>/.venv-datahub
//   npm run events:generate -- --check   exits 1 if the checked-in file differs from what it would write
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { locateSchemas } from './generate-registry.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUTPUT = path.join(ROOT, 'src/catalog/events/generated/event-schemas.json');
const RECORDS = ['MetadataChangeLog', 'PlatformEvent'] as const;

/** Drops documentation and annotations: only what the encoding needs (names, types, fields, symbols) is kept. */
function strip(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strip);
  if (typeof node !== 'object' || node === null) return node;
  const kept = ['type', 'name', 'namespace', 'fields', 'items', 'values', 'symbols', 'default'];
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k]) => kept.includes(k))
      .map(([k, v]) => [k, k === 'default' ? v : strip(v)]),
  );
}

function main(args: string[]): number {
  const source = locateSchemas();
  if ('reason' in source) {
    console.error(`events:generate: ${source.reason}`);
    return 2;
  }
  const out = {
    release: source.version,
    ...Object.fromEntries(RECORDS.map((r) => [r, strip(JSON.parse(fs.readFileSync(path.join(source.dir, `${r}.avsc`), 'utf8')))])),
  };
  const text = `${JSON.stringify(out, null, 1)}\n`;
  if (args.includes('--check')) {
    const same = fs.existsSync(OUTPUT) && fs.readFileSync(OUTPUT, 'utf8') === text;
    console[same ? 'log' : 'error'](`${path.relative(ROOT, OUTPUT)} ${same ? 'is up to date' : 'differs: run npm run events:generate'}`);
    return same ? 0 : 1;
  }
  fs.mkdirSync(path.dirname(OUTPUT), { recursive: true });
  fs.writeFileSync(OUTPUT, text);
  console.log(`wrote ${path.relative(ROOT, OUTPUT)} from acryl-datahub ${source.version}`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
