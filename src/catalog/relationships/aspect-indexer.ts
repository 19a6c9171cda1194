import type { AspectIndexer, Json } from '../../storage/store.ts';
import { RELATIONSHIP_ASPECTS, relationshipsOf } from './edges.ts';

const STATUS = 'status';

/**
 * What the store keeps beside aspect values: every relationship the registry's
 * `@Relationship` annotations declare, and which entities `status` soft-deletes.
 * `openStore` gives it to the adapter, which applies it inside the write.
 */
export const aspectIndexer: AspectIndexer = {
  aspects: new Set([...RELATIONSHIP_ASPECTS, STATUS]),
  index(_entityType: string, urn: string, aspect: string, value: Json) {
    return {
      relationships: RELATIONSHIP_ASPECTS.has(aspect) ? relationshipsOf(urn, aspect, value) : [],
      softDeleted: aspect === STATUS && value.removed === true,
    };
  },
};
