import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

const cache = new WeakMap<object, ReadonlySet<string>>();

/**
 * The names of the fields selected directly under the field being resolved, through fragments; cached per parsed
 * document. A resolver reads with it what only a selected field needs (a search's total and facets come with its page).
 */
export function selectedFields(info: GraphQLResolveInfo): ReadonlySet<string> {
  const first = info.fieldNodes[0]!;
  const cached = cache.get(first);
  if (cached) return cached;
  const found = new Set<string>();
  const visitedFragments = new Set<string>();
  const visit = (set: SelectionSetNode | undefined) => {
    for (const sel of set?.selections ?? []) {
      if (sel.kind === Kind.FIELD) found.add(sel.name.value);
      else if (sel.kind === Kind.INLINE_FRAGMENT) visit(sel.selectionSet);
      else if (!visitedFragments.has(sel.name.value)) {
        visitedFragments.add(sel.name.value);
        visit(info.fragments[sel.name.value]?.selectionSet);
      }
    }
  };
  for (const node of info.fieldNodes) visit(node.selectionSet);
  cache.set(first, found);
  return found;
}
