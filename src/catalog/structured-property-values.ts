import { badRequest } from './errors.ts';
import { parseUrn } from './urn.ts';
import type { AspectReads, Json, StoredAspect, WriteOp } from '../storage/store.ts';

/**
 * DataHub's StructuredPropertiesValidator: the values an entity's structuredProperties assigns, checked against each
 * property's definition (propertyDefinition): the property exists and is not soft-deleted, SINGLE cardinality holds
 * one value, each value has the definition's type (string, rich_text, date and urn as strings, a date as YYYY-MM-DD,
 * an urn of an allowed entity type; number as a number) and is one of the allowed values. The messages are
 * DataHub's, values printed as Pegasus prints them (`{string=foo}`, `{double=1.0}`).
 */

const objects = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]).filter((x) => typeof x === 'object' && x !== null) : []);

/** The property urns a structuredProperties value names. */
export const assignedProperties = (value: Json): string[] =>
  objects(value.properties).flatMap((a) => (typeof a.propertyUrn === 'string' ? [a.propertyUrn] : []));

/** Java's Double.toString for the values people use: 30.0, 1.5, 1.0E7. */
function javaDouble(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e7) return `${n}.0`;
  if (Math.abs(n) >= 1e7 || (n !== 0 && Math.abs(n) < 1e-3)) {
    const [mantissa, exponent] = n.toExponential().split('e');
    return `${mantissa!.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
  }
  return String(n);
}

/** A PrimitivePropertyValue as Pegasus prints it. */
function printed(v: unknown): string {
  if (typeof v !== 'object' || v === null) return String(v);
  return `{${Object.entries(v)
    .map(([k, x]) => `${k}=${typeof x === 'number' ? javaDouble(x) : String(x)}`)
    .join(', ')}}`;
}

const same = (a: unknown, b: unknown) => printed(a) === printed(b);

/** DataHub's getValueTypeId: `urn:li:dataType:datahub.string` is `string`. */
const valueTypeId = (valueType: unknown): string => {
  if (typeof valueType !== 'string') return '';
  const id = valueType.split(':').slice(3).join(':');
  return (id.startsWith('datahub.') ? id.split('.')[1]! : id).toLowerCase();
};

const isValidDate = (s: string): boolean => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
};

function typeProblem(property: string, definition: Json, v: Json): string | undefined {
  const type = valueTypeId(definition.valueType);
  const str = typeof v.string === 'string' ? v.string : undefined;
  const at = `Property: ${property}, value: ${printed(v)}`;
  if (['string', 'rich_text', 'date', 'urn'].includes(type)) {
    if (str === undefined) return `${at} should be a string`;
    if (type === 'date' && !isValidDate(str)) return `${at} should be a date with format YYYY-MM-DD`;
    if (type === 'urn') {
      let entityType: string;
      try {
        entityType = parseUrn(str).entityType;
      } catch {
        return `${at} should be an urn`;
      }
      const allowed = (definition.typeQualifier as Json | undefined)?.allowedTypes;
      if (Array.isArray(allowed) && !allowed.some((t) => valueTypeId(t) === entityType.toLowerCase())) {
        return `${at} is not of any supported urn types:[${allowed.join(', ')}]`;
      }
    }
    return undefined;
  }
  if (type === 'number') {
    const ok = typeof v.double === 'number' || (str !== undefined && str.trim() !== '' && !Number.isNaN(Number(str)));
    return ok ? undefined : `${at} should be a number`;
  }
  return `Validation support for type ${String(definition.valueType)} is not yet implemented.`;
}

/** Every problem with the assignments, in DataHub's order; the definitions are the properties' stored aspects. */
export function structuredPropertyProblems(value: Json, stored: ReadonlyMap<string, readonly Pick<StoredAspect, 'aspect' | 'value'>[]>): string[] {
  const problems: string[] = [];
  const assignments = objects(value.properties);
  const seen = new Set<string>();
  for (const a of assignments) {
    const property = String(a.propertyUrn);
    if (seen.has(property)) {
      problems.push(`Property: ${property} has multiple entries: ${assignments.filter((x) => x.propertyUrn === property).length}`);
      continue;
    }
    seen.add(property);
    if (parseUrn(property).entityType !== 'structuredProperty') {
      problems.push(`Unexpected entity type. Expected: structuredProperty Found: ${parseUrn(property).entityType}`);
      continue;
    }
    const aspects = stored.get(property) ?? [];
    if (aspects.find((x) => x.aspect === 'status')?.value.removed === true) {
      problems.push('Cannot apply a soft deleted Structured Property value');
    }
    const definition = aspects.find((x) => x.aspect === 'propertyDefinition')?.value;
    if (!definition) {
      problems.push(`Unexpected null value found for ${property} Structured Property Definition.`);
      continue;
    }
    const values = objects(a.values);
    if (definition.cardinality !== 'MULTIPLE' && values.length > 1) {
      problems.push(`Property: ${property} has cardinality 1, but multiple values were assigned: [${values.map(printed).join(', ')}]`);
    }
    const allowed = Array.isArray(definition.allowedValues) ? objects(definition.allowedValues).map((x) => x.value) : undefined;
    for (const v of values) {
      const problem = typeProblem(property, definition, v);
      if (problem) problems.push(problem);
      if (allowed && !allowed.some((x) => same(x, v))) {
        problems.push(`Property: ${property}, value: ${printed(v)} should be one of [${allowed.map(printed).join(', ')}]`);
      }
    }
  }
  return problems;
}

/** DataHub's ValidationExceptionCollection text for one entity's refused aspect. */
export const structuredPropertiesRefusal = (urn: string, problems: readonly string[], aspect = 'structuredProperties'): string =>
  `ValidationExceptionCollection{EntityAspect:(${urn},${aspect}) Exceptions: [${problems.join(', ')}]}`;

/**
 * DataHub's PropertyDefinitionValidator on a definition that replaces a stored one: no change to a soft-deleted
 * property, and none that breaks the values already assigned (the value type, MULTIPLE to SINGLE, the qualified
 * name, an allowed value taken away). DataHub's versioned breaking changes are not supported.
 */
export function definitionChangeProblems(next: Json, previous: Json | undefined, removed: boolean): string[] {
  const problems: string[] = [];
  if (removed) problems.push('Cannot mutate a soft deleted Structured Property Definition');
  if (!previous) return problems;
  if (next.valueType !== previous.valueType) problems.push('Value type cannot be changed as this is a backwards incompatible change');
  if ((next.cardinality ?? 'SINGLE') === 'SINGLE' && previous.cardinality === 'MULTIPLE') {
    problems.push('Property definition cardinality cannot be changed from MULTI to SINGLE');
  }
  if (next.qualifiedName !== previous.qualifiedName) problems.push('Cannot change the fully qualified name of a Structured Property');
  if (Array.isArray(next.allowedValues)) {
    const allowed = objects(next.allowedValues).map((v) => printed(v.value));
    const before = Array.isArray(previous.allowedValues) ? objects(previous.allowedValues) : undefined;
    if (before === undefined) problems.push('Cannot restrict values that were previously allowed');
    else for (const v of before) if (!allowed.includes(printed(v.value))) problems.push('Cannot restrict values that were previously allowed');
  }
  return problems;
}

/** Refuses one entity's structuredProperties value that breaks its definitions (one read of them), with DataHub's text. */
export async function refuseInvalidAssignments(aspects: Pick<AspectReads, 'getEntities'>, urn: string, value: Json): Promise<void> {
  const properties = assignedProperties(value);
  const stored = properties.length > 0 ? await aspects.getEntities(properties, ['propertyDefinition', 'status']) : new Map<string, StoredAspect[]>();
  const problems = structuredPropertyProblems(value, stored);
  if (problems.length > 0) throw badRequest(structuredPropertiesRefusal(urn, problems));
}

/** The structured property urns a value names anywhere (a patch names them in its paths and values). */
export function propertyUrnsIn(v: unknown, out: Set<string>): Set<string> {
  if (typeof v === 'string') {
    for (const m of v.matchAll(/urn:li:structuredProperty:[^/\s"]+/g)) out.add(m[0]);
  } else if (Array.isArray(v)) for (const x of v) propertyUrnsIn(x, out);
  else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) propertyUrnsIn(x, propertyUrnsIn(k, out));
  return out;
}

/**
 * A structuredProperties write computed inside the write (a PATCH, a conditional UPSERT) checked on its result: the
 * assignments it changed or added, against the definitions read beforehand (the unchanged ones were checked when
 * written, and a property soft-deleted since then does not block a change to another one).
 */
function checkedInWrite(o: WriteOp & { kind: 'aspect' }, stored: ReadonlyMap<string, readonly Pick<StoredAspect, 'aspect' | 'value'>[]>): WriteOp {
  const update = o.update!;
  return {
    ...o,
    update: (current, latest) => {
      const next = update(current, latest);
      const before = new Map(objects(current?.properties).map((a) => [a.propertyUrn, JSON.stringify(a)]));
      const changed = objects(next.properties).filter((a) => before.get(a.propertyUrn) !== JSON.stringify(a));
      const duplicated = assignedProperties(next).filter((u, i, all) => all.indexOf(u) !== i);
      const touched = objects(next.properties).filter((a) => changed.includes(a) || duplicated.includes(a.propertyUrn as string));
      const problems = structuredPropertyProblems({ properties: touched }, stored);
      if (problems.length > 0) throw badRequest(structuredPropertiesRefusal(o.urn, problems));
      return next;
    },
  };
}

/**
 * Checks a batch before anything is written: property definitions that would break the stored ones are refused, and
 * so are structuredProperties values that break their definitions (one read of the definitions replaced, one of every
 * definition named). A structuredProperties write computed inside the write (a PATCH) is given back with its update
 * wrapped to check its result there. Answers the ops to write.
 */
export async function checkStructuredProperties(
  aspects: Pick<AspectReads, 'getEntities'>,
  ops: readonly WriteOp[],
  /** The properties the batch's patches name (a patch op carries no value of its own). */
  patched: ReadonlySet<string> = new Set(),
): Promise<WriteOp[]> {
  const defined = ops.flatMap((o) => (o.kind === 'aspect' && o.aspect === 'propertyDefinition' && !o.update ? [o] : []));
  if (defined.length > 0) {
    const before = await aspects.getEntities([...new Set(defined.map((o) => o.urn))], ['propertyDefinition', 'status']);
    for (const o of defined) {
      const stored = before.get(o.urn) ?? [];
      const previous = stored.find((a) => a.aspect === 'propertyDefinition')?.value;
      const problems = definitionChangeProblems(o.value, previous, stored.find((a) => a.aspect === 'status')?.value.removed === true);
      if (problems.length > 0) throw badRequest(structuredPropertiesRefusal(o.urn, problems, 'propertyDefinition'));
    }
  }
  const assigned = ops.flatMap((o) => (o.kind === 'aspect' && o.aspect === 'structuredProperties' ? [o] : []));
  if (assigned.length === 0) return [...ops];
  const named = new Set<string>(patched);
  for (const o of assigned) for (const u of o.update ? propertyUrnsIn(o.value, named) : assignedProperties(o.value)) named.add(u);
  const properties = [...named];
  const stored = properties.length > 0 ? await aspects.getEntities(properties, ['propertyDefinition', 'status']) : new Map<string, StoredAspect[]>();
  // A definition written in the same batch counts, ahead of the stored one.
  for (const o of ops) {
    if (o.kind !== 'aspect' || o.update || (o.aspect !== 'propertyDefinition' && o.aspect !== 'status') || !named.has(o.urn)) continue;
    const others = (stored.get(o.urn) ?? []).filter((a) => a.aspect !== o.aspect);
    stored.set(o.urn, [
      ...others,
      { urn: o.urn, entityType: o.entityType, aspect: o.aspect, version: 0, value: o.value, systemMetadata: null, createdOn: 0, createdBy: '' },
    ]);
  }
  for (const o of assigned) {
    if (o.update) continue;
    const problems = structuredPropertyProblems(o.value, stored);
    if (problems.length > 0) throw badRequest(structuredPropertiesRefusal(o.urn, problems));
  }
  return ops.map((o) => (o.kind === 'aspect' && o.aspect === 'structuredProperties' && o.update ? checkedInWrite(o, stored) : o));
}
