import type { AspectChange } from '../../storage/store.ts';
import { ASPECTS } from '../registry/aspects.ts';
import { findAspectSpec, findEntitySpec } from '../registry/index.ts';
import { schemaFieldPropertyChanges } from '../timeline/field-changes.ts';
import { parseUrn } from '../urn.ts';
import { type AspectDiffer, differsFor } from '../timeline/categories.ts';
import type { ChangeCategory } from '../timeline/change-event.ts';
import { type EntityChangeEventV1, toEntityChangeEvent } from './entity-change-event.ts';

export type { EntityChangeEventV1 };

/**
 * The categories whose Entity Change Events the log carries from the timeline's differs. DEPRECATION is made as
 * webhooks have always sent it (entity-change-event.ts, from the timeline's deprecation differ, with Almanac's
 * additions: an event when a deprecated entity's note, date or replacement changes, and `replacement`).
 */
export const ENTITY_CHANGE_CATEGORIES: readonly ChangeCategory[] = [
  'TAG',
  'GLOSSARY_TERM',
  'OWNERSHIP',
  'DOMAIN',
  'DOCUMENTATION',
  'TECHNICAL_SCHEMA',
  'STRUCTURED_PROPERTY',
];

/**
 * Every category of Entity Change Event the log carries, which webhooks deliver and subscriptions filter on: the
 * differs' above, DEPRECATION, LIFECYCLE, and RUN (a truncation or retention task's end). Owners are `OWNERSHIP`, the
 * name DataHub's PlatformEventGeneratorHook puts on the wire (`ChangeCategory.name()`); DataHub's docs say `OWNER`,
 * which subscriptions take as another name for it (OWNER_ALIAS).
 */
export const EMITTED_CATEGORIES: readonly string[] = [...ENTITY_CHANGE_CATEGORIES, 'DEPRECATION', 'LIFECYCLE', 'RUN'];

/** The name DataHub's Entity Change Event docs give owner changes, and the category it stands for. */
export const OWNER_ALIAS = { name: 'OWNER', category: 'OWNERSHIP' } as const;

/** The key aspects whose creation and hard deletion DataHub's hook reports as LIFECYCLE (EntityChangeEventGeneratorHook). */
const LIFECYCLE_KEYS = new Set([
  'datasetKey',
  'dashboardKey',
  'chartKey',
  'containerKey',
  'dataFlowKey',
  'dataJobKey',
  'glossaryTermKey',
  'domainKey',
  'tagKey',
  'businessAttributeKey',
]);

const differsByType = new Map<string, Map<string, AspectDiffer[]>>();

/**
 * What DataHub's Entity Change Events carry and its timeline does not: the description, tags and terms of the fields
 * as ingested in schemaMetadata (its hook asks that generator for DOCUMENTATION, TAG and GLOSSARY_TERM as well as
 * TECHNICAL_SCHEMA). One differ yields the three categories.
 */
const EVENT_ONLY: readonly AspectDiffer[] = [{ aspect: 'schemaMetadata', category: 'DOCUMENTATION', diff: schemaFieldPropertyChanges }];

/** The timeline's differs of one entity type, by aspect (the same ones its timeline answers with), and EVENT_ONLY's. */
function differs(entityType: string): Map<string, AspectDiffer[]> {
  let found = differsByType.get(entityType);
  if (!found) {
    found = findEntitySpec(entityType) ? differsFor(entityType, ENTITY_CHANGE_CATEGORIES) : new Map<string, AspectDiffer[]>();
    for (const d of EVENT_ONLY) if (findAspectSpec(entityType, d.aspect)) found.set(d.aspect, [...(found.get(d.aspect) ?? []), d]);
    differsByType.set(entityType, found);
  }
  return found;
}

/**
 * Whether a change of the aspect can have Entity Change Events (LIFECYCLE keys, status, deprecation, the aspects the
 * differs read): the log marks those entries, and PlatformEvent_v1 reads only them and its own.
 */
export const derivesEntityChangeEvents = (entityType: string, aspect: string): boolean =>
  LIFECYCLE_KEYS.has(aspect) || aspect === 'status' || aspect === 'deprecation' || differs(entityType).has(aspect);

/** LIFECYCLE: a key aspect created or deleted, a status's `removed` turned on or off (DataHub's generators for them). */
function lifecycle(c: AspectChange): string | undefined {
  if (LIFECYCLE_KEYS.has(c.aspect) && ASPECTS.get(c.aspect)?.kind === 'key') {
    if (c.before === null && c.after !== null) return 'CREATE';
    if (c.after === null) return 'HARD_DELETE';
    return undefined;
  }
  if (c.aspect !== 'status') return undefined;
  const was = c.before?.removed === true;
  const is = c.after?.removed === true;
  if (is && !was) return 'SOFT_DELETE';
  if (was && !is && c.after !== null) return 'REINSTATE';
  return undefined;
}

/**
 * The entity an event is about: the changed one, or the one its differ names instead (a dataset's field, for the
 * changes of editableSchemaMetadata: a schemaField urn), with that urn's entity type, as DataHub's
 * PlatformEventGeneratorHook sets both from the timeline's event.
 */
const about = (urn: string, c: AspectChange) =>
  urn === c.urn ? { entityType: c.entityType, entityUrn: c.urn } : { entityType: parseUrn(urn).entityType, entityUrn: urn };

/**
 * The Entity Change Events DataHub's EntityChangeEventGeneratorHook derives from one change log: the timeline's
 * differs of the aspect (a deleted aspect is diffed against an empty value), and LIFECYCLE. Version 0 and the change's
 * audit stamp, as the hook sets them.
 */
export function entityChangeEvents(c: AspectChange): EntityChangeEventV1[] {
  const auditStamp = { time: c.at, actor: c.actor };
  const base = { entityType: c.entityType, entityUrn: c.urn };
  const out: EntityChangeEventV1[] = [];
  const operation = lifecycle(c);
  if (operation) out.push({ ...base, category: 'LIFECYCLE', operation, auditStamp, version: 0 });
  if (c.aspect === 'deprecation' && c.changeType === 'UPSERT' && c.after !== null) {
    out.push(
      toEntityChangeEvent({
        ...base,
        category: 'DEPRECATION',
        source: 'deprecation',
        before: c.before,
        after: c.after,
        actor: c.actor,
        createdAt: c.at,
      }),
    );
  }
  for (const d of differs(c.entityType).get(c.aspect) ?? []) {
    for (const e of d.diff(c.before ?? undefined, c.after ?? {}, c.urn)) {
      out.push({
        ...about(e.entityUrn, c),
        category: e.category,
        operation: e.operation,
        ...(e.modifier !== undefined ? { modifier: e.modifier } : {}),
        ...(e.parameters !== undefined ? { parameters: e.parameters as EntityChangeEventV1['parameters'] } : {}),
        auditStamp,
        version: 0,
      });
    }
  }
  return out;
}
