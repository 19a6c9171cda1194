import type { EntitySearch } from './search/entity-search.ts';
import { structuredPropertyField } from './search/search-entries.ts';
import type { Proposal } from './proposals.ts';
import { allEntitySpecs } from './registry/index.ts';
import type { AspectReads, Json } from '../storage/store.ts';

const ASPECT = 'structuredProperties';
/** Entities rewritten per batch. */
const PAGE = 500;

/** The entity types that can hold structured property values. */
const HOLDERS = allEntitySpecs()
  .filter((e) => e.aspects.includes(ASPECT))
  .map((e) => e.name);

/**
 * DataHub's PropertyDefinitionDeleteSideEffect: once a structured property is hard deleted, every entity that holds a
 * value of it loses that assignment. The entities are found through the search index (`structuredProperties.<id>`),
 * soft-deleted ones included; `write` stores the rewritten aspects (the system actor's ingest).
 */
export async function dropAssignments(
  search: EntitySearch,
  aspects: Pick<AspectReads, 'getEntities'>,
  propertyUrn: string,
  write: (proposals: Proposal[]) => Promise<void>,
): Promise<void> {
  const field = structuredPropertyField(propertyUrn);
  const query = { entityTypes: HOLDERS, filter: [[{ field, values: [], condition: 'EXISTS' }]], includeSoftDeleted: true, sort: [] };
  // Each pass rewrites what it found, so the next first page holds only the entities not yet rewritten.
  for (;;) {
    const { hits } = await search.page(query, 0, PAGE);
    if (hits.length === 0) return;
    const stored = await aspects.getEntities(
      hits.map((h) => h.urn),
      [ASPECT],
    );
    const proposals: Proposal[] = hits.flatMap(({ urn, entityType }) => {
      const value = stored.get(urn)?.find((a) => a.aspect === ASPECT)?.value;
      if (!value) return [];
      const properties = (Array.isArray(value.properties) ? (value.properties as Json[]) : []).filter((a) => a?.propertyUrn !== propertyUrn);
      return [{ entityType, urn, changeType: 'UPSERT', aspectName: ASPECT, value: { ...value, properties }, systemMetadata: null }];
    });
    if (proposals.length === 0) return;
    await write(proposals);
  }
}
