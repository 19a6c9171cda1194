import type { EntitySearch } from './search/entity-search.ts';
import { badRequest } from './errors.ts';
import { STRUCTURED_PROPERTY_FIELD_PREFIX, structuredPropertyField } from './search/search-entries.ts';
import type { AspectEdits } from './curation/aspect-edits.ts';
import { allEntitySpecs } from './registry/index.ts';
import type { AspectReads, Json, StoredAspect } from '../storage/store.ts';

const ASPECT = 'structuredProperties';
/** Entities rewritten per batch. */
const PAGE = 500;

/** The entity types that can hold structured property values. */
const HOLDERS = allEntitySpecs()
  .filter((e) => e.aspects.includes(ASPECT))
  .map((e) => e.name);

/**
 * DataHub's PropertyDefinitionDeleteSideEffect: once a structured property is hard deleted, every entity that holds a
 * value of it loses that assignment, and only that one (the others stay as they are, even a soft-deleted property's,
 * so the change is not checked against the definitions again). The entities are found through the search index
 * (`structuredProperties.<id>`), soft-deleted ones included; each page is one transaction of the actor's.
 */
export async function dropAssignments(search: EntitySearch, edits: AspectEdits, propertyUrn: string, actor: string): Promise<void> {
  const field = structuredPropertyField(propertyUrn);
  const query = { entityTypes: HOLDERS, filter: [[{ field, values: [], condition: 'EXISTS' }]], includeSoftDeleted: true, sort: [] };
  const without = (current: Json | undefined): Json => ({
    ...current,
    properties: (Array.isArray(current?.properties) ? (current.properties as Json[]) : []).filter((a) => a?.propertyUrn !== propertyUrn),
  });
  // Each pass rewrites what it found, so the next first page holds only the entities not yet rewritten.
  for (let seen = new Set<string>(); ;) {
    const { hits } = await search.page(query, 0, PAGE);
    const fresh = hits.filter((h) => !seen.has(h.urn));
    if (fresh.length === 0) return;
    seen = new Set([...seen, ...fresh.map((h) => h.urn)]);
    await edits.apply(
      fresh.map(({ urn, entityType }) => ({ urn, entityType, aspect: ASPECT, update: without })),
      actor,
      edits.now(),
      (urn) => `${urn} was deleted while ${propertyUrn}'s values were being removed`,
    );
  }
}

const propertyUrnsOf = (value: Json): string[] =>
  (Array.isArray(value.properties) ? (value.properties as Json[]) : []).flatMap((a) => (typeof a?.propertyUrn === 'string' ? [a.propertyUrn] : []));

/** Of these structured properties, the soft-deleted ones (one read of their status). */
async function softDeleted(aspects: Pick<AspectReads, 'getEntities'>, propertyUrns: readonly string[]): Promise<Set<string>> {
  if (propertyUrns.length === 0) return new Set();
  const stored = await aspects.getEntities([...new Set(propertyUrns)], ['status']);
  return new Set([...stored].filter(([, list]) => list.some((a) => a.aspect === 'status' && a.value.removed === true)).map(([urn]) => urn));
}

/**
 * DataHub's StructuredPropertiesAssignmentMutator on reads: an entity's structuredProperties leaves out the values of
 * properties that are soft deleted (they come back if the property is restored). Other aspects pass through.
 */
export async function hideSoftDeletedProperties<T extends Pick<StoredAspect, 'aspect' | 'value'>>(
  aspects: Pick<AspectReads, 'getEntities'>,
  stored: readonly T[],
): Promise<T[]> {
  const held = stored.filter((a) => a.aspect === ASPECT);
  const removed = await softDeleted(
    aspects,
    held.flatMap((a) => propertyUrnsOf(a.value)),
  );
  if (removed.size === 0) return [...stored];
  return stored.map((a) =>
    a.aspect !== ASPECT
      ? a
      : { ...a, value: { ...a.value, properties: (a.value.properties as Json[]).filter((x) => !removed.has(x?.propertyUrn as string)) } },
  );
}

/** DataHub's validateStructuredPropertyFQN: a search filter on a soft-deleted property's values is refused. */
export async function refuseFiltersOnDeletedProperties(aspects: Pick<AspectReads, 'getEntities'>, fields: readonly string[]): Promise<void> {
  const urns = fields
    .filter((f) => f.startsWith(STRUCTURED_PROPERTY_FIELD_PREFIX))
    .map((f) => `urn:li:structuredProperty:${f.slice(STRUCTURED_PROPERTY_FIELD_PREFIX.length).replace(/\.keyword$/, '')}`);
  const removed = await softDeleted(aspects, urns);
  if (removed.size > 0) throw badRequest(`Cannot filter on deleted Structured Property [${[...removed].join(', ')}]`);
}
