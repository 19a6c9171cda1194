import { z } from 'zod';
import { badRequest, validationFailed } from '../errors.ts';
import { ASPECTS, type AspectKind, type AspectSpec } from './aspects.ts';
import { ENTITIES, type EntitySpec } from './entities.ts';
import { checkPartitionSpec, TIMESTAMP_MISSING, timeseriesAspectBase } from './timeseries-aspects.ts';
import { checkUrnFields } from './urn-fields.ts';

export type { AspectKind, AspectSpec, EntitySpec };
export { DATAHUB_REGISTRY } from './datahub-registry.ts';

/**
 * DataHub looks entity names up case-insensitively (ConfigEntityRegistry keys
 * its map by the lower-cased name), so `DATASET` finds `dataset`.
 */
const BY_LOWER_NAME = new Map(ENTITIES.map((e) => [e.name.toLowerCase(), e]));
// Clients almost always send the exact name; finding it first spares a lower-cased copy on every lookup.
const BY_NAME = new Map(ENTITIES.map((e) => [e.name, e]));
const ACCEPTED = new Map(ENTITIES.map((e) => [e.name, new Set(e.aspects)]));

export function findEntitySpec(entityType: string): EntitySpec | undefined {
  return BY_NAME.get(entityType) ?? BY_LOWER_NAME.get(entityType.toLowerCase());
}

export function entitySpec(entityType: string): EntitySpec {
  const spec = findEntitySpec(entityType);
  if (!spec) throw badRequest(`Failed to find entity with name ${entityType} in EntityRegistry`);
  return spec;
}

/** Aspect names are exact (DataHub's EntitySpec.getAspectSpec is case-sensitive). */
export function findAspectSpec(entityType: string, aspectName: string): AspectSpec | undefined {
  return ACCEPTED.get(entitySpec(entityType).name)!.has(aspectName) ? ASPECTS.get(aspectName) : undefined;
}

export function aspectSpec(entityType: string, aspectName: string): AspectSpec {
  const spec = findAspectSpec(entityType, aspectName);
  if (!spec) throw badRequest(`Unknown aspect ${aspectName} for entity ${entityType}`);
  return spec;
}

const CLASS_OF_ASPECT = new Map([...ASPECTS.values()].map((a) => [a.name, a.pegasusClass]));
const ASPECT_OF_CLASS = new Map([...ASPECTS.values()].map((a) => [a.pegasusClass, a.name]));

/** The Pegasus class of an aspect (com.linkedin.common.Status for status); the name itself if it is none. */
export const aspectClassOf = (aspect: string): string => CLASS_OF_ASPECT.get(aspect) ?? aspect;

/** The aspect a Pegasus class is the model of, e.g. status for com.linkedin.common.Status. */
export const aspectOfClass = (pegasusClass: string): string | undefined => ASPECT_OF_CLASS.get(pegasusClass);

export function allEntitySpecs(): readonly EntitySpec[] {
  return ENTITIES;
}

export function aspectNamesOfKind(entityType: string, kind: AspectKind): string[] {
  return entitySpec(entityType).aspects.filter((a) => ASPECTS.get(a)?.kind === kind);
}

const TIMESERIES_PAIRS = Object.freeze(
  ENTITIES.flatMap((e) => aspectNamesOfKind(e.name, 'timeseries').map((aspect) => Object.freeze({ entityType: e.name, aspect }))),
);

export function timeseriesAspectPairs(): ReadonlyArray<{ entityType: string; aspect: string }> {
  return TIMESERIES_PAIRS;
}

/**
 * DataHub's timeseries index names are lower-cased, so operations addressing
 * an index (e.g. truncateTimeseriesAspect) match entity and aspect in any case.
 * Returns the canonical names.
 */
export function findTimeseriesAspectCaseInsensitive(entityType: string, aspect: string): { entityType: string; aspect: string } | undefined {
  const e = entityType.toLowerCase();
  const a = aspect.toLowerCase();
  return TIMESERIES_PAIRS.find((p) => p.entityType.toLowerCase() === e && p.aspect.toLowerCase() === a);
}

/** `fieldProfiles[0].fieldPath` style, as users read paths in JSON. */
function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? String(seg) : `.${String(seg)}`;
  }
  return out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return cur;
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  // zod reports a missing key as a type or enum mismatch against undefined; say it plainly.
  const missing = issue.path.length > 0 && valueAt(input, issue.path) === undefined;
  const notInt = issue.code === 'invalid_type' && issue.expected === 'int';
  let what = missing ? 'is required' : notInt ? 'expected an integer' : issue.message.replace(/^Invalid (input|option): /, '');
  if (what === 'Invalid input') what = 'has an invalid value';
  what = what.charAt(0).toLowerCase() + what.slice(1);
  return issue.path.length === 0 ? what : `field "${formatPath(issue.path)}" ${what}`;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Any JSON object: the check on aspects Almanac does not interpret, which gives zod's wording to a non-object. */
const ANY_OBJECT = z.looseObject({});

function parsed(spec: AspectSpec, schema: z.ZodType, value: unknown): unknown {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  const details = result.error.issues.map((i) => describeIssue(i, value)).join('; ');
  throw validationFailed(`Aspect ${spec.name} is invalid: ${details}`);
}

/**
 * Validates an aspect value. An interpreted aspect comes back with defaults
 * applied and unknown fields kept; any other aspect must be a JSON object (a
 * timeseries one with a valid TimeseriesAspectBase) and comes back as sent.
 * Schema failures are 422 (DataHub's ValidationException); the partitionSpec
 * rule is 400 (DataHub throws IllegalArgumentException there).
 */
export function validateAspect(entityType: string, aspectName: string, value: unknown): Record<string, unknown> {
  const spec = aspectSpec(entityType, aspectName);
  if (spec.kind === 'timeseries' && isRecord(value) && (value['timestampMillis'] ?? null) === null) {
    throw validationFailed(TIMESTAMP_MISSING);
  }
  let out: Record<string, unknown>;
  if (spec.schema) {
    out = parsed(spec, spec.schema, value) as Record<string, unknown>;
  } else {
    if (spec.kind === 'timeseries') parsed(spec, timeseriesAspectBase, value);
    else if (!isRecord(value)) parsed(spec, ANY_OBJECT, value);
    out = value as Record<string, unknown>;
  }
  if (spec.kind === 'timeseries') checkPartitionSpec(out);
  if (spec.kind !== 'key') checkUrnFields(entityType, spec.name, out);
  return out;
}

/**
 * Builds the key aspect from urn parts (tuple parts, or `[key]` for single-key
 * urns) by position, as DataHub's EntityKeyUtils does. The result is not
 * validated; pass it to validateAspect with the key aspect name for that.
 */
export function keyAspectValue(entityType: string, parts: readonly string[]): Record<string, unknown> {
  const spec = entitySpec(entityType);
  if (parts.length !== spec.keyFields.length) {
    throw badRequest('Failed to convert urn to entity key: urns parts and key fields do not have same length');
  }
  return Object.fromEntries(spec.keyFields.map((field, i) => [field, parts[i]]));
}
