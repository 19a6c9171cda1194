import { CatalogError, validationFailed } from '../errors.ts';
import { parseDatasetUrn, parseUrn, type Urn } from '../urn.ts';
import { DATAHUB_REGISTRY, type RegistryUrnField } from './datahub-registry.ts';

/**
 * DataHub's checks of the urns an aspect holds (EntityRegistryUrnValidator, run by validateRecordTemplate on every
 * write, and UrnAnnotationValidator's strict `@UrnValidation` entity types): each urn-typed field must hold a urn of
 * an entity type the registry knows, with as many parts as its key; a typed urn (DatasetUrn, ...) one of its own
 * type; a field a `@Relationship` annotates one of the relationship's entity types.
 */
interface FieldRule extends RegistryUrnField {
  /** the entity types the `@Relationship` annotations at this path accept */
  readonly destinations?: readonly string[];
  /** the relationship's PathSpec, as DataHub names it in the refusal */
  readonly relationshipPath?: string;
  /** `path`'s segments */
  readonly segments: readonly string[];
}

const RULES = new Map<string, readonly FieldRule[]>(
  Object.entries(DATAHUB_REGISTRY.aspects).map(([name, aspect]) => {
    const rels = aspect.relationships ?? [];
    const rules = (aspect.urns ?? []).map((field): FieldRule => {
      // A relationship on an array of urns is written at its elements (`upstreams/*`), the urn field at the array.
      const at = rels.filter((r) => r.path === field.path || r.path === `${field.path}/*`);
      const segments = field.path.split('/');
      if (at.length === 0) return { ...field, segments };
      return { ...field, segments, destinations: at.flatMap((r) => r.entityTypes), relationshipPath: `/${at[0]!.path}` };
    });
    return [name, rules];
  }),
);

const ENTITY_KEY_PARTS = new Map(
  Object.entries(DATAHUB_REGISTRY.entities).map(([name, e]) => [name.toLowerCase(), { name, parts: e.keyFields.length }]),
);

/** The concrete path of the value a walk is at (`/upstreams/0/dataset`), from its keys. */
const pathOf = (keys: ReadonlyArray<string | number>): string => keys.map((k) => `/${k}`).join('');

/** What a walk calls with each value it reaches and the keys that lead to it (a stack: read it at once). */
type Visit = (value: unknown, keys: ReadonlyArray<string | number>) => void;

/**
 * Calls `visit` with each value at a PathSpec's segments from segment `i` (an array of urns: each element) and the
 * keys that lead to it; pathOf names them only for a refusal, which most writes have none of.
 */
function visitAt(value: unknown, segments: readonly string[], i: number, keys: Array<string | number>, visit: Visit): void {
  if (value === null || value === undefined) return;
  if (i === segments.length) {
    if (!Array.isArray(value)) visit(value, keys);
    else for (let k = 0; k < value.length; k++) visitUnder(k, value[k], segments, i + 1, keys, visit);
    return;
  }
  if (typeof value !== 'object') return;
  const head = segments[i]!;
  if (head === '*') {
    if (Array.isArray(value)) for (let k = 0; k < value.length; k++) visitUnder(k, value[k], segments, i + 1, keys, visit);
    else for (const [k, v] of Object.entries(value)) visitUnder(k, v, segments, i + 1, keys, visit);
    return;
  }
  if (Array.isArray(value) || !Object.hasOwn(value, head)) return;
  visitUnder(head, (value as Record<string, unknown>)[head], segments, i + 1, keys, visit);
}

/** visitAt one key down: `value` is at `key`; past the last segment, it is an element of the urns' array. */
function visitUnder(key: string | number, value: unknown, segments: readonly string[], i: number, keys: Array<string | number>, visit: Visit): void {
  keys.push(key);
  if (i > segments.length) visit(value, keys);
  else visitAt(value, segments, i, keys, visit);
  keys.pop();
}

const reasonOf = (e: unknown): string => {
  if (e instanceof CatalogError) return e.message;
  throw e;
};

/** Why a urn may not fill the field, as EntityRegistryUrnValidator words it; undefined when it may. */
function refusal(raw: string, rule: FieldRule): string | undefined {
  let urn: Urn;
  try {
    urn = parseUrn(raw);
  } catch (e) {
    return reasonOf(e);
  }
  const entity = ENTITY_KEY_PARTS.get(urn.entityType.toLowerCase());
  if (!entity) return `Entity type ${urn.entityType} is missing from entity registry`;
  if (urn.parts.length !== entity.parts) {
    return `Failed to convert urn to entity key: urns parts and key fields do not have same length for ${raw}`;
  }
  if (rule.typeref !== undefined) {
    let typed = urn.entityType === rule.entityType;
    if (typed && rule.entityType === 'dataset') {
      try {
        parseDatasetUrn(urn);
      } catch {
        typed = false;
      }
    }
    if (!typed) return `Unable to instantiate urn type: com.linkedin.common.${rule.typeref} with urn: ${raw}`;
  }
  if (rule.destinations && !rule.destinations.includes(urn.entityType)) {
    return `Entity type for urn: ${raw} is not a valid destination for field path: ${rule.relationshipPath}`;
  }
  return undefined;
}

/**
 * Refuses an aspect value whose urn fields hold what their schema does not allow, with DataHub's message
 * (`Invalid format for aspect: dataset\n Cause: ERROR :: /upstreams/0/dataset :: "Provided urn ..." is invalid: ...`).
 * Values that are not strings are left to the aspect's own schema.
 */
export function checkUrnFields(entityType: string, aspectName: string, value: unknown): void {
  const rules = RULES.get(aspectName);
  if (!rules || rules.length === 0) return;
  const errors: string[] = [];
  const annotationErrors: string[] = [];
  for (const rule of rules) {
    visitAt(value, rule.segments, 0, [], (raw, keys) => {
      if (typeof raw !== 'string') return;
      const why = refusal(raw, rule);
      if (why !== undefined) errors.push(`ERROR :: ${pathOf(keys)} :: "Provided urn ${raw}" is invalid: ${why}\n`);
      else if (rule.allowed && !rule.allowed.includes(parseUrn(raw).entityType)) {
        annotationErrors.push(`Invalid entity type urn validation failure (Required: [${rule.allowed.join(', ')}]). Path: /${rule.path} Urn: ${raw}`);
      }
    });
  }
  if (errors.length > 0) throw validationFailed(`Invalid format for aspect: ${entityType}\n Cause: ${errors.join('')}`);
  if (annotationErrors.length > 0) throw validationFailed(annotationErrors.join('; '));
}
