import type { AspectChange } from '../../storage/store.ts';
import { ASPECTS } from '../registry/aspects.ts';
import { findEntitySpec } from '../registry/index.ts';
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

/** The timeline's differs of one entity type, by aspect (the same ones its timeline answers with). */
function differs(entityType: string): Map<string, AspectDiffer[]> {
  let found = differsByType.get(entityType);
  if (!found) {
    found = findEntitySpec(entityType) ? differsFor(entityType, ENTITY_CHANGE_CATEGORIES) : new Map<string, AspectDiffer[]>();
    differsByType.set(entityType, found);
  }
  return found;
}

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
        ...base,
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
