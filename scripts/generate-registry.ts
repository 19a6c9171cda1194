// Writes src/catalog/registry/generated/datahub-registry.json, DataHub's entity registry as data: every entity (key
// aspect, key fields in urn order, category, aspects, snapshot class) and every aspect (kind, Pegasus class,
// timeseries collections, @Relationship and @Searchable annotations), from the Avro schemas the acryl-datahub package ships.
//
//   npm run registry:generate                       reads the package installed in <repo>/.venv-datahub
//   npm run registry:generate -- --schemas <dir>    reads <site-packages>/datahub/metadata/schemas of an unpacked wheel
//   npm run registry:generate -- --check            exits 1 if the checked-in file differs from what it would write
//
// Why the package's Avro schemas and not entity-registry.yml: the package is the release clients install, pinned by
// version, and its key-aspect schemas carry the entity registry itself (`Aspect.keyForEntity`, `entityCategory`,
// `entityAspects`: DataHub's avro_codegen copies them from entity-registry.yml at build time), next to every aspect's
// name, kind and annotations. DataHub's source tree has no tag for 1.7.0.17: checked against its newest
// entity-registry.yml (acryldata/datahub master, db53644, 2026-07-23), the yml lists no entity or (entity, aspect)
// pair the package lacks, while the package has the searchTemplate entity and 36 pairs the yml lacks (dataset's
// aliases, chart's upstreamMetrics, ...), so the yml is older than the release and serves only as a cross-check.
//
// A new release is a rerun. The generator stops with a message rather than guess when the schemas hold something it
// does not understand: an entity aspect without a schema, a duplicate aspect name, a key field that is not a string.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  KeyField,
  RegistryAspect,
  RegistryData,
  RegistryEntity,
  RegistryRelationship,
  RegistrySearchable,
  RegistryUrnField,
} from '../src/catalog/registry/datahub-registry.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OUTPUT = path.join(ROOT, 'src/catalog/registry/generated/datahub-registry.json');
const VENV_PYTHON = path.join(ROOT, '.venv-datahub/bin/python');
const PACKAGE = 'acryl-datahub';

/** An Avro schema node as the package's .avsc files hold it. */
type Avro = string | Avro[] | AvroObject;
interface AvroObject {
  type: Avro;
  name?: string;
  namespace?: string;
  fields?: AvroField[];
  items?: Avro;
  values?: Avro;
  symbols?: string[];
  Aspect?: { name: string; type?: string; keyForEntity?: string; entityCategory?: string; entityAspects?: string[] };
  Entity?: { name: string; keyAspect: string };
}
interface AvroField {
  name: string;
  type: Avro;
  java?: { class?: string };
  Urn?: string;
  UrnValidation?: { entityTypes?: string[] };
  Relationship?: Record<string, unknown>;
  Searchable?: Record<string, unknown>;
  TimeseriesFieldCollection?: unknown;
}

export interface SchemaSource {
  readonly dir: string;
  readonly version: string;
}

class GeneratorError extends Error {}
const fail = (message: string): never => {
  throw new GeneratorError(message);
};

/** Avro names the Pegasus namespace com.linkedin.x as com.linkedin.pegasus2avro.x. */
const pegasusName = (avroName: string): string => avroName.replace('.pegasus2avro.', '.');

const fullName = (name: string, namespace: string | undefined): string =>
  name.includes('.') || namespace === undefined ? name : `${namespace}.${name}`;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isRecordNode = (v: Avro | undefined): v is AvroObject => typeof v === 'object' && !Array.isArray(v);

/** The named types (records, enums) one schema file defines, by full name, so later references resolve. */
function namedTypes(schema: Avro): Map<string, AvroObject> {
  const named = new Map<string, AvroObject>();
  const visit = (node: Avro, namespace: string | undefined): void => {
    if (Array.isArray(node)) return node.forEach((n) => visit(n, namespace));
    if (!isRecordNode(node)) return;
    let ns = namespace;
    if (node.name !== undefined && (node.type === 'record' || node.type === 'enum' || node.type === 'fixed')) {
      const name = fullName(node.name, node.namespace ?? namespace);
      ns = name.slice(0, name.lastIndexOf('.'));
      named.set(name, node);
    }
    for (const f of node.fields ?? []) visit(f.type, ns);
    if (node.items !== undefined) visit(node.items, ns);
    if (node.values !== undefined) visit(node.values, ns);
    if (typeof node.type !== 'string') visit(node.type, ns);
  };
  visit(schema, undefined);
  return named;
}

const PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']);

/** The key a Pegasus union member has on the wire: a primitive's name, or a named type's Pegasus class. */
function unionMemberKey(member: Avro, namespace: string | undefined): string {
  if (typeof member === 'string') return PRIMITIVES.has(member) ? member : pegasusName(fullName(member, namespace));
  if (isRecordNode(member) && member.name !== undefined) return pegasusName(fullName(member.name, member.namespace ?? namespace));
  if (isRecordNode(member) && typeof member.type === 'string') return member.type;
  return fail(`cannot name a union member: ${JSON.stringify(member).slice(0, 80)}`);
}

function relationshipOf(at: AnnotatedPath, annotation: unknown, where: string): RegistryRelationship {
  if (!isObject(annotation) || typeof annotation.name !== 'string' || !Array.isArray(annotation.entityTypes)) {
    return fail(`${where}: a Relationship annotation needs a name and entityTypes`);
  }
  return {
    path: at.segments.join('/'),
    name: annotation.name,
    entityTypes: [...(annotation.entityTypes as string[])],
    ...(typeof annotation.isLineage === 'boolean' ? { isLineage: annotation.isLineage } : {}),
    ...(typeof annotation.isUpstream === 'boolean' ? { isUpstream: annotation.isUpstream } : {}),
    // DataHub's reference removal (DeleteEntityUtils) drops an optional field but must drop the record holding a required one.
    optional: at.optional,
    ...(typeof annotation.via === 'string' ? { via: annotation.via } : {}),
  };
}

function searchableOf(at: AnnotatedPath, annotation: unknown, where: string): RegistrySearchable {
  if (!isObject(annotation)) return fail(`${where}: a Searchable annotation must be an object`);
  const last = [...at.segments].reverse().find((s) => s !== '*') ?? '';
  return {
    path: at.segments.join('/'),
    // DataHub names the index field after the annotated field unless the annotation names it.
    name: typeof annotation.fieldName === 'string' ? annotation.fieldName : (at.field ?? last),
    ...(typeof annotation.fieldType === 'string' ? { type: annotation.fieldType } : {}),
    ...(typeof annotation.boostScore === 'number' && annotation.boostScore !== 1 ? { boostScore: annotation.boostScore } : {}),
    ...(annotation.enableAutocomplete === true ? { enableAutocomplete: true } : {}),
    ...(annotation.addToFilters === true ? { addToFilters: true } : {}),
    ...(typeof annotation.filterNameOverride === 'string' ? { filterNameOverride: annotation.filterNameOverride } : {}),
    // DataHub's default is true; only a field that opts out says so.
    ...(annotation.queryByDefault === false ? { queryByDefault: false } : {}),
    ...(typeof annotation.hasValuesFieldName === 'string' ? { hasValuesFieldName: annotation.hasValuesFieldName } : {}),
    ...(typeof annotation.numValuesFieldName === 'string' ? { numValuesFieldName: annotation.numValuesFieldName } : {}),
    ...(Array.isArray(annotation.fieldNameAliases) &&
    annotation.fieldNameAliases.every((a) => typeof a === 'string') &&
    annotation.fieldNameAliases.length > 0
      ? { fieldNameAliases: annotation.fieldNameAliases as string[] }
      : {}),
  };
}

/** Where an annotation applies: the path's segments, whether each is an optional record field, and the annotated field. */
interface AnnotatedPath {
  readonly segments: string[];
  readonly optional: boolean[];
  readonly field?: string;
}

/**
 * Every annotation of one kind (`Relationship`, `Searchable`) in an aspect, at its full path. An annotation written
 * on a field with a path (`"/*\/tag"`) reaches into the field's type and wins over one the nested record declares at
 * the same path, as in DataHub, because the walk meets the outer field first and keeps the first annotation per path.
 */
function annotations(
  schema: AvroObject,
  named: Map<string, AvroObject>,
  kind: 'Relationship' | 'Searchable' | 'Urn',
  ignore: (annotation: unknown) => boolean = () => false,
): Array<{ at: AnnotatedPath; annotation: unknown }> {
  const found = new Map<string, { at: AnnotatedPath; annotation: unknown }>();
  const add = (at: AnnotatedPath, annotation: unknown) => {
    const key = at.segments.join('/');
    if (ignore(annotation)) return;
    if (!found.has(key)) found.set(key, { at, annotation });
  };
  /** The type a path written in an annotation reaches, to tell optional fields along it. */
  const optionalAlong = (type: Avro, rest: string[], namespace: string | undefined): boolean[] =>
    rest.map((segment) => {
      const members = Array.isArray(type) ? type.filter((m) => m !== 'null') : [type];
      let node: Avro | undefined = members.length === 1 ? members[0] : undefined;
      if (typeof node === 'string') node = named.get(fullName(node, namespace)) ?? named.get(node);
      if (!isRecordNode(node)) return false;
      if (segment === '*') {
        type = (node.type === 'array' ? node.items : node.values) ?? 'null';
        return false;
      }
      const field = node.fields?.find((f) => f.name === segment);
      type = field?.type ?? 'null';
      return Array.isArray(field?.type) && field.type.includes('null');
    });
  const walk = (node: Avro, at: AnnotatedPath, namespace: string | undefined, open: ReadonlySet<string>): void => {
    const deeper = (segment: string, optional = false): AnnotatedPath => ({
      segments: [...at.segments, segment],
      optional: [...at.optional, optional],
    });
    if (typeof node === 'string') {
      const ref = named.get(fullName(node, namespace)) ?? named.get(node);
      if (ref && ref.type === 'record') walk(ref, at, namespace, open);
      return;
    }
    if (Array.isArray(node)) {
      const members = node.filter((m) => m !== 'null');
      if (members.length === 1) return walk(members[0]!, at, namespace, open);
      for (const m of members) walk(m, deeper(unionMemberKey(m, namespace)), namespace, open);
      return;
    }
    if (node.type === 'array') return walk(node.items!, deeper('*'), namespace, open);
    if (node.type === 'map') return walk(node.values!, deeper('*'), namespace, open);
    if (typeof node.type !== 'string') return walk(node.type, at, namespace, open);
    if (node.type !== 'record') return; // an enum, a fixed or an annotated primitive
    const name = fullName(node.name!, node.namespace ?? namespace);
    if (open.has(name)) return; // a recursive type: its annotations were met one level up
    const inner = new Set(open).add(name);
    const ns = name.slice(0, name.lastIndexOf('.'));
    for (const field of node.fields ?? []) {
      const fieldAt = deeper(field.name, Array.isArray(field.type) && field.type.includes('null'));
      // A urn field's typeref and its @UrnValidation's entity types sit side by side on the field.
      const annotation =
        kind !== 'Urn' ? field[kind] : field.Urn === undefined ? undefined : { typeref: field.Urn, allowed: field.UrnValidation?.entityTypes };
      if (annotation !== undefined) {
        const paths = Object.keys(annotation);
        if (paths.length > 0 && paths.every((p) => p.startsWith('/'))) {
          for (const p of paths) {
            const rest = p.slice(1).split('/');
            const optional = optionalAlong(field.type, rest, ns);
            add(
              { segments: [...fieldAt.segments, ...rest], optional: [...fieldAt.optional, ...optional], field: field.name },
              (annotation as Record<string, unknown>)[p],
            );
          }
        } else {
          add({ ...fieldAt, field: field.name }, annotation);
        }
      }
      walk(field.type, fieldAt, ns, inner);
    }
  };
  walk(schema, { segments: [], optional: [] }, undefined, new Set());
  return [...found.values()];
}

function relationships(schema: AvroObject, named: Map<string, AvroObject>, where: string): RegistryRelationship[] {
  return annotations(schema, named, 'Relationship')
    .map(({ at, annotation }) => relationshipOf(at, annotation, `${where} ${at.segments.join('/')}`))
    .sort((a, b) => compare(a.path, b.path) || compare(a.name, b.name));
}

/**
 * The entity type each typed urn class holds (its Java class's ENTITY_TYPE). A class missing here stops the
 * generator: a new one needs its entity type read from DataHub's source, not guessed from its name.
 */
const TYPED_URNS: Readonly<Record<string, string>> = {
  BusinessAttributeUrn: 'businessAttribute',
  ChartUrn: 'chart',
  CorpGroupUrn: 'corpGroup',
  CorpuserUrn: 'corpuser',
  DashboardUrn: 'dashboard',
  DataFlowUrn: 'dataFlow',
  DataJobUrn: 'dataJob',
  DataPlatformUrn: 'dataPlatform',
  DataProcessUrn: 'dataProcess',
  DatasetFieldUrn: 'datasetField',
  DatasetUrn: 'dataset',
  GlossaryNodeUrn: 'glossaryNode',
  GlossaryTermUrn: 'glossaryTerm',
  MLFeatureUrn: 'mlFeature',
  MLModelUrn: 'mlModel',
  TagUrn: 'tag',
};

/**
 * Every urn-typed field of an aspect (the `Urn` typeref DataHub's EntityRegistryUrnValidator checks), with the entity
 * type a typed urn (DatasetUrn, ...) must hold and the types a strict `@UrnValidation` allows.
 */
function urnFields(schema: AvroObject, named: Map<string, AvroObject>, where: string): RegistryUrnField[] {
  return annotations(schema, named, 'Urn')
    .map(({ at, annotation }): RegistryUrnField => {
      const { typeref, allowed } = annotation as { typeref: string; allowed?: string[] };
      const path = at.segments.join('/');
      if (typeref === 'Urn') return { path, ...(allowed ? { allowed: [...allowed] } : {}) };
      const entityType = TYPED_URNS[typeref] ?? fail(`${where} ${path}: typed urn ${typeref} has no known entity type`);
      return { path, typeref, entityType, ...(allowed ? { allowed: [...allowed] } : {}) };
    })
    .sort((a, b) => compare(a.path, b.path));
}

/** An outer annotation holding only `v3` settings tunes the nested field's own annotation; it names no field itself. */
const onlyV3 = (annotation: unknown) => isObject(annotation) && Object.keys(annotation).length === 1 && 'v3' in annotation;

function searchables(schema: AvroObject, named: Map<string, AvroObject>, where: string): RegistrySearchable[] {
  return annotations(schema, named, 'Searchable', onlyV3)
    .map(({ at, annotation }) => searchableOf(at, annotation, `${where} ${at.segments.join('/')}`))
    .sort((a, b) => compare(a.path, b.path));
}

/** Plain code-unit order, so the output does not depend on the machine's locale. */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function keyField(field: AvroField, named: Map<string, AvroObject>, where: string): KeyField {
  let type = field.type;
  let optional = false;
  if (Array.isArray(type)) {
    const members = type.filter((m) => m !== 'null');
    if (members.length !== 1) return fail(`${where}.${field.name}: a key field may not be a union`);
    optional = members.length < type.length;
    type = members[0]!;
  }
  const opt = optional ? { optional: true as const } : {};
  if (type === 'string') {
    const isUrn = field.Urn !== undefined || (field.java?.class ?? '').endsWith('Urn');
    return { name: field.name, type: isUrn ? 'urn' : 'string', ...opt };
  }
  const enumType = typeof type === 'string' ? named.get(type) : type;
  if (isRecordNode(enumType) && enumType.type === 'enum' && Array.isArray(enumType.symbols)) {
    return { name: field.name, type: 'enum', symbols: [...enumType.symbols], ...opt };
  }
  // Urns carry key fields as text; a non-string key field would need a conversion rule Almanac does not have.
  return fail(`${where}.${field.name}: key field of type ${JSON.stringify(type).slice(0, 60)} is not supported`);
}

/** Reads the schemas and builds the registry. Pure apart from reading `dir`. */
export function buildRegistry(source: SchemaSource): RegistryData {
  const files = fs
    .readdirSync(source.dir)
    .filter((f) => f.endsWith('.avsc'))
    .sort(compare);
  if (files.length === 0) fail(`no .avsc files in ${source.dir}`);
  const aspects: Record<string, RegistryAspect> = {};
  const keys: Array<{ schema: AvroObject; named: Map<string, AvroObject>; file: string }> = [];
  const snapshots = new Map<string, string>();
  for (const file of files) {
    const schema = JSON.parse(fs.readFileSync(path.join(source.dir, file), 'utf8')) as AvroObject;
    const named = namedTypes(schema);
    if (file === 'MetadataChangeEvent.avsc') collectSnapshots(schema, snapshots);
    const ann = schema.Aspect;
    if (!ann) continue;
    if (aspects[ann.name]) fail(`${file}: aspect ${ann.name} is defined twice`);
    const kind = ann.keyForEntity !== undefined ? 'key' : ann.type === 'timeseries' ? 'timeseries' : 'versioned';
    if (ann.type !== undefined && ann.type !== 'timeseries') fail(`${file}: unknown aspect type ${ann.type}`);
    const rels = relationships(schema, named, file);
    const search = searchables(schema, named, file);
    const urns = kind === 'key' ? [] : urnFields(schema, named, file);
    const collections = (schema.fields ?? []).filter((f) => f.TimeseriesFieldCollection !== undefined).map((f) => f.name);
    aspects[ann.name] = {
      kind,
      class: pegasusName(fullName(schema.name!, schema.namespace)),
      ...(kind === 'timeseries' ? { collections } : {}),
      ...(rels.length > 0 ? { relationships: rels } : {}),
      ...(search.length > 0 ? { searchable: search } : {}),
      ...(urns.length > 0 ? { urns } : {}),
    };
    if (kind === 'key') keys.push({ schema, named, file });
  }
  const classes = new Set<string>();
  for (const [name, a] of Object.entries(aspects)) {
    if (classes.has(a.class)) fail(`aspect ${name}: class ${a.class} names another aspect too`);
    classes.add(a.class);
  }
  const entities: Record<string, RegistryEntity> = {};
  for (const { schema, named, file } of keys) {
    const ann = schema.Aspect!;
    const name = ann.keyForEntity!;
    if (entities[name]) fail(`${file}: entity ${name} has two key aspects`);
    const accepted = [...new Set(ann.entityAspects ?? [])].sort(compare);
    for (const a of accepted) {
      if (!aspects[a]) fail(`${file}: entity ${name} lists aspect ${a}, which no schema defines`);
      if (aspects[a]!.kind === 'key') fail(`${file}: entity ${name} lists another entity's key aspect ${a}`);
    }
    entities[name] = {
      keyAspect: ann.name,
      category: ann.entityCategory === undefined || ann.entityCategory === '_unset_' ? null : ann.entityCategory,
      keyFields: (schema.fields ?? []).map((f) => keyField(f, named, file)),
      aspects: accepted,
      ...(snapshots.has(name) ? { snapshotClass: snapshots.get(name)! } : {}),
    };
  }
  return { source: { package: PACKAGE, version: source.version }, entities: sortKeys(entities), aspects: sortKeys(aspects) };
}

/** The snapshot classes of MetadataChangeEvent's `proposedSnapshot` union, by the entity each `@Entity` names. */
function collectSnapshots(mce: AvroObject, out: Map<string, string>): void {
  const union = mce.fields?.find((f) => f.name === 'proposedSnapshot')?.type;
  if (!Array.isArray(union)) return fail('MetadataChangeEvent.avsc: proposedSnapshot is not a union');
  for (const member of union) {
    if (isRecordNode(member) && member.Entity && member.name) out.set(member.Entity.name, pegasusName(fullName(member.name, member.namespace)));
  }
}

const sortKeys = <T>(record: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(record).sort(([a], [b]) => compare(a, b)));

export const serialize = (registry: RegistryData): string => `${JSON.stringify(registry, null, 2)}\n`;

/**
 * The schemas to read: `--schemas <dir>` (or ALMANAC_DATAHUB_SCHEMAS), whose release is read from the
 * acryl_datahub-<version>.dist-info beside the `datahub` package; else the package in <repo>/.venv-datahub.
 * Returns a reason instead when there is none.
 */
export function locateSchemas(schemasArg?: string): SchemaSource | { reason: string } {
  const dir = schemasArg ?? process.env.ALMANAC_DATAHUB_SCHEMAS;
  if (dir !== undefined) {
    const site = path.resolve(dir, '../../..');
    const distInfo = fs.existsSync(site) ? fs.readdirSync(site).find((d) => /^acryl_datahub-.+\.dist-info$/.test(d)) : undefined;
    if (!fs.existsSync(dir)) return { reason: `${dir} does not exist` };
    if (!distInfo) return { reason: `no acryl_datahub-*.dist-info in ${site}, so the release of ${dir} is unknown` };
    return { dir: path.resolve(dir), version: distInfo.replace(/^acryl_datahub-/, '').replace(/\.dist-info$/, '') };
  }
  if (!fs.existsSync(VENV_PYTHON)) return { reason: `${path.relative(ROOT, VENV_PYTHON)} is missing` };
  // importlib.metadata finds the files without importing datahub, which is slow.
  const script = `import importlib.metadata as m; d = m.distribution('${PACKAGE}'); print(d.version); print(d.locate_file('datahub/metadata/schemas'))`;
  const py = spawnSync(VENV_PYTHON, ['-c', script], { encoding: 'utf8' });
  if (py.status !== 0) return { reason: `${PACKAGE} is not installed in .venv-datahub: ${py.stderr.trim().split('\n').pop()}` };
  const [version, schemas] = py.stdout.trim().split('\n');
  return { dir: schemas!, version: version! };
}

function main(args: string[]): number {
  const at = args.indexOf('--schemas');
  const source = locateSchemas(at >= 0 ? args[at + 1] : undefined);
  if ('reason' in source) {
    console.error(`registry:generate: ${source.reason} (pass --schemas <site-packages>/datahub/metadata/schemas)`);
    return 2;
  }
  const registry = buildRegistry(source);
  const text = serialize(registry);
  const counts = `${Object.keys(registry.entities).length} entities, ${Object.keys(registry.aspects).length} aspects`;
  if (args.includes('--check')) {
    const current = fs.existsSync(OUTPUT) ? fs.readFileSync(OUTPUT, 'utf8') : '';
    if (current === text) {
      console.log(`${path.relative(ROOT, OUTPUT)} is up to date with ${PACKAGE} ${source.version} (${counts})`);
      return 0;
    }
    console.error(`${path.relative(ROOT, OUTPUT)} differs from ${PACKAGE} ${source.version}: run npm run registry:generate`);
    return 1;
  }
  fs.mkdirSync(path.dirname(OUTPUT), { recursive: true });
  fs.writeFileSync(OUTPUT, text);
  console.log(`wrote ${path.relative(ROOT, OUTPUT)} from ${PACKAGE} ${source.version} (${counts})`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof GeneratorError)) throw e;
    console.error(`registry:generate: ${e.message}`);
    process.exitCode = 1;
  }
}
