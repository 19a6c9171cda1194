import type { FastifyPluginAsync } from 'fastify';
import { badRequest, notFound } from '../../catalog/errors.ts';
import { entitySpec, findAspectSpec, type EntitySpec } from '../../catalog/registry/index.ts';
import type { SortCriterion } from '../../catalog/search/search-filter.ts';
import { fullTextQuery } from '../../catalog/search/search-filter.ts';
import { parseUrn } from '../../catalog/urn.ts';
import type { StoredAspect } from '../../storage/store.ts';
import type { AppContext } from '../context.ts';

/** The query parameters of DataHub's v2 entity scroll (GenericEntitiesController.getEntities). */
const SCROLL_PARAMS = new Set([
  'aspectNames', 'aspects', 'count', 'query', 'scrollId', 'sort', 'sortCriteria', 'sortOrder', 'systemMetadata', 'skipCache', 'includeSoftDelete', 'pitKeepAlive',
]);
const GET_PARAMS = new Set(['aspectNames', 'aspects', 'systemMetadata']);
const MAX_COUNT = 10_000;

type Query = Readonly<Record<string, string | string[] | undefined>>;

const list = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const one = (q: Query, name: string): string | undefined => {
  const values = list(q[name]);
  if (values.length > 1) throw badRequest(`Query parameter '${name}' is given ${values.length} times`);
  return values[0];
};

function flag(q: Query, name: string): boolean {
  const v = one(q, name);
  if (v === undefined || v === 'false') return false;
  if (v === 'true') return true;
  throw badRequest(`Query parameter '${name}' must be true or false, got ${JSON.stringify(v)}`);
}

/** Parameters it does not know are refused by name: a misspelt one is never silently ignored. */
function acceptParams(q: Query, known: ReadonlySet<string>): void {
  const extra = Object.keys(q).find((k) => !known.has(k));
  if (extra !== undefined) throw badRequest(`Unknown query parameter '${extra}'; this route takes ${[...known].join(', ')}`);
}

/** aspectNames and aspects together; none means every versioned aspect of the entity. */
function aspectNames(spec: EntitySpec, q: Query): string[] {
  const named = [...new Set([...list(q.aspectNames), ...list(q.aspects)].flatMap((a) => a.split(',')).filter((a) => a !== ''))];
  for (const a of named) if (!findAspectSpec(spec.name, a)) throw badRequest(`Query parameter 'aspectNames': ${spec.name} has no aspect ${a}`);
  return named.length > 0 ? named : spec.aspects.filter((a) => findAspectSpec(spec.name, a)?.kind !== 'timeseries');
}

/** DataHub's GenericEntityV2: the urn and `{aspect: {value, systemMetadata?}}`. */
const entityV2 = (urn: string, aspects: readonly StoredAspect[], withSystemMetadata: boolean) => ({
  urn,
  aspects: Object.fromEntries(aspects.map((a) => [a.aspect, withSystemMetadata && a.systemMetadata ? { value: a.value, systemMetadata: a.systemMetadata } : { value: a.value }])),
});

function sortOf(q: Query): SortCriterion[] {
  const order = one(q, 'sortOrder') ?? 'ASCENDING';
  if (order !== 'ASCENDING' && order !== 'DESCENDING') throw badRequest(`Query parameter 'sortOrder' must be ASCENDING or DESCENDING, got ${order}`);
  const fields = list(q.sortCriteria).filter((f) => f.trim() !== '');
  const chosen = fields.length > 0 ? fields : [one(q, 'sort') ?? 'urn'];
  // urn ascending is the scroll's own order: no sort pass needed.
  if (chosen.length === 1 && chosen[0] === 'urn' && order === 'ASCENDING') return [];
  return chosen.map((field) => ({ field, order }));
}

/** DataHub's OpenAPI v2 entity scroll and get, as datahub-gc's execution request cleanup reads them. */
export const openapiV2Routes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    app.get<{ Params: { entityName: string }; Querystring: Query }>('/openapi/v2/entity/:entityName', async (req) => {
      acceptParams(req.query, SCROLL_PARAMS);
      const spec = entitySpec(req.params.entityName);
      const count = Number(one(req.query, 'count') ?? '10');
      if (!Number.isInteger(count) || count < 0 || count > MAX_COUNT) throw badRequest(`Query parameter 'count' must be an integer from 0 to ${MAX_COUNT}`);
      const aspects = aspectNames(spec, req.query);
      const page = await ctx.catalog.search.scroll(
        { entityTypes: [spec.name], query: fullTextQuery(one(req.query, 'query')), filter: [], includeSoftDeleted: flag(req.query, 'includeSoftDelete'), sort: sortOf(req.query) },
        one(req.query, 'scrollId'),
        count,
      );
      const withSystemMetadata = flag(req.query, 'systemMetadata');
      flag(req.query, 'skipCache');
      const stored = await ctx.catalog.getEntities(page.hits.map((h) => h.urn), aspects);
      const results = page.hits.map((h) => entityV2(h.urn, stored.get(h.urn) ?? [], withSystemMetadata));
      // No scrollId once there is nothing more: datahub-gc stops on its absence.
      return page.nextScrollId ? { scrollId: page.nextScrollId, results } : { results };
    });

    app.get<{ Params: { entityName: string; urn: string }; Querystring: Query }>('/openapi/v2/entity/:entityName/:urn', async (req) => {
      acceptParams(req.query, GET_PARAMS);
      const spec = entitySpec(req.params.entityName);
      if (entitySpec(parseUrn(req.params.urn).entityType).name !== spec.name) throw badRequest(`Urn ${req.params.urn} is not a ${spec.name} urn`);
      const stored = await ctx.catalog.getEntities([req.params.urn], aspectNames(spec, req.query));
      const aspects = stored.get(req.params.urn);
      if (!aspects) throw notFound(`Entity ${req.params.urn} not found`);
      return entityV2(req.params.urn, aspects, flag(req.query, 'systemMetadata'));
    });
  };
