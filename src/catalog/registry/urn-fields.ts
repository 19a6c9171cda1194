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
}

const RULES = new Map<string, readonly FieldRule[]>(
  Object.entries(DATAHUB_REGISTRY.aspects).map(([name, aspect]) => {
    const rels = aspect.relationships ?? [];
    const rules = (aspect.urns ?? []).map((field): FieldRule => {
      // A relationship on an array of urns is written at its elements (`upstreams/*`), the urn field at the array.
      const at = rels.filter((r) => r.path === field.path || r.path === `${field.path}/*`);
      if (at.length === 0) return field;
      return { ...field, destinations: at.flatMap((r) => r.entityTypes), relationshipPath: `/${at[0]!.path}` };
    });
    return [name, rules];
  }),
);

const ENTITY_KEY_PARTS = new Map(
  Object.entries(DATAHUB_REGISTRY.entities).map(([name, e]) => [name.toLowerCase(), { name, parts: e.keyFields.length }]),
);

/** The values at a PathSpec, each with its concrete path (`/upstreams/0/dataset`); an array of urns yields each element. */
function* valuesAt(value: unknown, segments: readonly string[], at: string): Generator<[string, unknown]> {
  if (value === null || value === undefined) return;
  if (segments.length === 0) {
    if (Array.isArray(value)) for (const [i, v] of value.entries()) yield [`${at}/${i}`, v];
    else yield [at, value];
    return;
  }
  if (typeof value !== 'object') return;
  const [head, ...rest] = segments as [string, ...string[]];
  if (head === '*') {
    const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
    for (const [k, v] of entries) yield* valuesAt(v, rest, `${at}/${k}`);
    return;
  }
  if (Array.isArray(value) || !Object.hasOwn(value, head)) return;
  yield* valuesAt((value as Record<string, unknown>)[head], rest, `${at}/${head}`);
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
    for (const [path, raw] of valuesAt(value, rule.path.split('/'), '')) {
      if (typeof raw !== 'string') continue;
      const why = refusal(raw, rule);
      if (why !== undefined) errors.push(`ERROR :: ${path} :: "Provided urn ${raw}" is invalid: ${why}\n`);
      else if (rule.allowed && !rule.allowed.includes(parseUrn(raw).entityType)) {
        annotationErrors.push(`Invalid entity type urn validation failure (Required: [${rule.allowed.join(', ')}]). Path: /${rule.path} Urn: ${raw}`);
      }
    }
  }
  if (errors.length > 0) throw validationFailed(`Invalid format for aspect: ${entityType}\n Cause: ${errors.join('')}`);
  if (annotationErrors.length > 0) throw validationFailed(annotationErrors.join('; '));
}
