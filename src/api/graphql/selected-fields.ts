import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/**
 * By operation, then by the field's first node, then by path: a parsed document is cached and shared by requests and
 * may hold several operations, and a fragment's field merges other selections in each operation that spreads it.
 */
const cache = new WeakMap<object, WeakMap<object, Map<string, ReadonlySet<string>>>>();

/**
 * The names of the fields selected at `path` under the field being resolved (each step a field's name, whatever its
 * alias), through fragments and under every type condition; cached per operation. With no path, the fields
 * selected directly under it. A resolver reads with it what only a selected field needs (a search's total and facets
 * come with its page; its hits' entities read their aspects only when a field needs them).
 */
export function selectedFields(info: GraphQLResolveInfo, path: readonly string[] = []): ReadonlySet<string> {
  const first = info.fieldNodes[0]!;
  const key = path.join('.');
  let byNode = cache.get(info.operation);
  let byPath = byNode?.get(first);
  const cached = byPath?.get(key);
  if (cached) return cached;
  const fieldsOf = (sets: ReadonlyArray<SelectionSetNode | undefined>): FieldNode[] => {
    const fields: FieldNode[] = [];
    const visitedFragments = new Set<string>();
    const visit = (set: SelectionSetNode | undefined) => {
      for (const sel of set?.selections ?? []) {
        if (sel.kind === Kind.FIELD) fields.push(sel);
        else if (sel.kind === Kind.INLINE_FRAGMENT) visit(sel.selectionSet);
        else if (!visitedFragments.has(sel.name.value)) {
          visitedFragments.add(sel.name.value);
          visit(info.fragments[sel.name.value]?.selectionSet);
        }
      }
    };
    for (const set of sets) visit(set);
    return fields;
  };
  let fields = fieldsOf(info.fieldNodes.map((n) => n.selectionSet));
  for (const step of path) fields = fieldsOf(fields.filter((f) => f.name.value === step).map((f) => f.selectionSet));
  const found: ReadonlySet<string> = new Set(fields.map((f) => f.name.value));
  if (!byNode) cache.set(info.operation, (byNode = new WeakMap()));
  if (!byPath) byNode.set(first, (byPath = new Map()));
  byPath.set(key, found);
  return found;
}
