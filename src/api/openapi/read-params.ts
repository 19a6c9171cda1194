import { badRequest } from '../../catalog/errors.ts';
import { findAspectSpec, type EntitySpec } from '../../catalog/registry/index.ts';
import type { SortCriterion } from '../../catalog/search/search-filter.ts';
import type { StoredAspect } from '../../storage/store.ts';

/** The query parameters of DataHub's OpenAPI read routes, as Fastify parses them (repeated ones as arrays). */
export type Query = Readonly<Record<string, string | string[] | undefined>>;

export const MAX_COUNT = 10_000;

export const list = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

export function one(q: Query, name: string): string | undefined {
  const values = list(q[name]);
  if (values.length > 1) throw badRequest(`Query parameter '${name}' is given ${values.length} times`);
  return values[0];
}

export function flag(q: Query, name: string): boolean {
  const v = one(q, name);
  if (v === undefined || v === 'false') return false;
  if (v === 'true') return true;
  throw badRequest(`Query parameter '${name}' must be true or false, got ${JSON.stringify(v)}`);
}

/** Parameters a route does not know are refused by name: a misspelt one is never silently ignored. */
export function acceptParams(q: Query, known: ReadonlySet<string>): void {
  const extra = Object.keys(q).find((k) => !known.has(k));
  if (extra !== undefined) throw badRequest(`Unknown query parameter '${extra}'; this route takes ${[...known].join(', ')}`);
}

/** A page size: DataHub's default of 10, bounded. */
export function countParam(q: Query): number {
  const count = Number(one(q, 'count') ?? '10');
  if (!Number.isInteger(count) || count < 0 || count > MAX_COUNT)
    throw badRequest(`Query parameter 'count' must be an integer from 0 to ${MAX_COUNT}`);
  return count;
}

/** The deprecated query-string sort (sortCriteria fields, or sort, with sortOrder); urn ascending needs no sort pass. */
export function sortOf(q: Query): SortCriterion[] {
  const order = one(q, 'sortOrder') ?? 'ASCENDING';
  if (order !== 'ASCENDING' && order !== 'DESCENDING') throw badRequest(`Query parameter 'sortOrder' must be ASCENDING or DESCENDING, got ${order}`);
  const fields = list(q.sortCriteria).filter((f) => f.trim() !== '');
  const chosen = fields.length > 0 ? fields : [one(q, 'sort') ?? 'urn'];
  return withoutUrnOrder(chosen.map((field) => ({ field, order })));
}

/** Urn ascending is the scroll's own order: asking for it alone needs no sort pass. */
export const withoutUrnOrder = (sort: SortCriterion[]): SortCriterion[] =>
  sort.length === 1 && sort[0]!.field === 'urn' && sort[0]!.order === 'ASCENDING' ? [] : sort;

/** The versioned aspects of an entity type: what "every aspect" means on a read. */
export const versionedAspects = (spec: EntitySpec): string[] => spec.aspects.filter((a) => findAspectSpec(spec.name, a)?.kind !== 'timeseries');

/** DataHub's aspect form on OpenAPI reads: `{value}`, with `systemMetadata` only when asked for. */
export const aspectView = (a: StoredAspect, withSystemMetadata: boolean) =>
  withSystemMetadata && a.systemMetadata ? { value: a.value, systemMetadata: a.systemMetadata } : { value: a.value };
