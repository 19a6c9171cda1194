import { gql } from './api.ts';
import { REF_FIELDS, type EntityRefView } from './entity-ref.ts';

// GraphQL allows 30 aliases per operation (ALMANAC_GRAPHQL_MAX_ALIASES); a request keeps a few spare.
const PER_REQUEST = 25;

/**
 * The entities behind the urns, each with what names it (REF_FIELDS), in as few requests as the alias limit allows.
 * A urn Almanac has no GraphQL type for is left out; so is one beyond `limit`.
 */
export async function entityRefs(urns: readonly string[], limit = 200): Promise<Map<string, EntityRefView>> {
  const wanted = [...new Set(urns)].slice(0, limit);
  const out = new Map<string, EntityRefView>();
  const batches: string[][] = [];
  for (let i = 0; i < wanted.length; i += PER_REQUEST) batches.push(wanted.slice(i, i + PER_REQUEST));
  await Promise.all(
    batches.map(async (batch) => {
      const vars = batch.map((_, i) => `$u${i}: String!`).join(', ');
      const fields = batch.map((_, i) => `e${i}: entity(urn: $u${i}) { ...ref }`).join('\n');
      const data = await gql<Record<string, EntityRefView | null>>(
        `query names(${vars}) {\n${fields}\n}\n${REF_FIELDS}`,
        Object.fromEntries(batch.map((u, i) => [`u${i}`, u])),
      );
      for (const e of Object.values(data)) if (e) out.set(e.urn, e);
    }),
  );
  return out;
}
