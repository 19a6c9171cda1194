import type { AspectIndexer, Json } from '../../storage/store.ts';
import { RELATIONSHIP_ASPECTS, relationshipsOf } from './edges.ts';
import { SEARCHABLE_ASPECTS, searchEntries } from '../search/search-entries.ts';

const STATUS = 'status';

/**
 * What the store keeps beside aspect values: every relationship the registry's `@Relationship` annotations declare,
 * which entities `status` soft-deletes, and (with `search`) each aspect's part of its entity's search document
 * (`@Searchable`). Without `search` no aspect gives search entries, none is computed: what the benchmarks measure the
 * search index's cost against.
 */
export function makeAspectIndexer(options: { readonly search: boolean }): AspectIndexer {
  return {
    aspects: new Set([...RELATIONSHIP_ASPECTS, STATUS, ...SEARCHABLE_ASPECTS]),
    index(entityType: string, urn: string, aspect: string, value: Json) {
      return {
        relationships: RELATIONSHIP_ASPECTS.has(aspect) ? relationshipsOf(urn, aspect, value) : [],
        softDeleted: aspect === STATUS && value.removed === true,
        search: options.search && SEARCHABLE_ASPECTS.has(aspect) ? searchEntries(entityType, aspect, value, urn) : [],
      };
    },
  };
}

/** The indexer `openStore` gives the adapter, which applies it inside the write. */
export const aspectIndexer: AspectIndexer = makeAspectIndexer({ search: true });
