import type { EntitySearch } from '../search/entity-search.ts';
import type { AspectReads, Json } from '../../storage/store.ts';

/** How many same-named siblings a check reads (DataHub's page of 1000), and how deep a parent chain is walked. */
const SAME_NAME_LIMIT = 1000;
const MAX_DEPTH = 100;

/** A tree of entities kept in one aspect: domains (domainProperties.parentDomain), glossary nodes and terms (parentNode). */
export interface Hierarchy {
  readonly entityType: string;
  readonly aspect: string;
  /** The aspect's property naming the parent. */
  readonly parent: string;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The parent named in the entity's aspect, or null (a root, or no aspect). */
export async function parentOf(aspects: Pick<AspectReads, 'getAspect'>, h: Hierarchy, urn: string): Promise<string | null> {
  return str((await aspects.getAspect(urn, h.aspect))?.value[h.parent]);
}

/** Whether `ancestor` is `urn` or one of its parents (DataHub's isDescendant, bounded: a cycle ends the walk). */
export async function isAncestorOrSelf(aspects: Pick<AspectReads, 'getAspect'>, h: Hierarchy, ancestor: string, urn: string): Promise<boolean> {
  let at: string | null = urn;
  for (let depth = 0; at !== null && depth < MAX_DEPTH; depth++) {
    if (at === ancestor) return true;
    at = await parentOf(aspects, h, at);
  }
  return false;
}

/**
 * Whether another entity of the tree has this name under this parent (null: at the root): DataHub's name-conflict
 * checks. The search index finds the entities of that name; their stored aspect decides (exact name, same parent).
 */
export async function siblingNamed(
  aspects: Pick<AspectReads, 'getEntities'>,
  search: EntitySearch,
  h: Hierarchy & { readonly name: string },
  name: string,
  parent: string | null,
  except?: string,
): Promise<boolean> {
  const page = await search.page(
    { entityTypes: [h.entityType], filter: [[{ field: 'name', values: [name] }]], includeSoftDeleted: false, sort: [] },
    0,
    SAME_NAME_LIMIT,
  );
  const urns = page.hits.map((hit) => hit.urn).filter((u) => u !== except);
  if (urns.length === 0) return false;
  const found = await aspects.getEntities(urns, [h.aspect]);
  return [...found.values()].some((stored) => {
    const value = stored.find((a) => a.aspect === h.aspect)?.value;
    return value !== undefined && value[h.name] === name && str(value[h.parent]) === parent;
  });
}

/** The aspect with its parent set, or removed (null: a root). */
export function withParent(value: Json, h: Hierarchy, parent: string | null): Json {
  const rest = Object.fromEntries(Object.entries(value).filter(([k]) => k !== h.parent));
  return parent === null ? rest : { ...rest, [h.parent]: parent };
}
