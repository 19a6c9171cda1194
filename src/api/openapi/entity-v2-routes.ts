import type { FastifyPluginAsync } from 'fastify';
import { badRequest, notFound } from '../../catalog/errors.ts';
import { entitySpec, findAspectSpec, type EntitySpec } from '../../catalog/registry/index.ts';
import { fullTextQuery } from '../../catalog/search/search-filter.ts';
import { parseUrn } from '../../catalog/urn.ts';
import type { StoredAspect } from '../../storage/store.ts';
import type { AppContext } from '../context.ts';
import { acceptParams, aspectView, countParam, flag, list, one, sortOf, versionedAspects, type Query } from './read-params.ts';

/** The query parameters of DataHub's v2 entity scroll (GenericEntitiesController.getEntities). */
const SCROLL_PARAMS = new Set([
  'aspectNames',
  'aspects',
  'count',
  'query',
  'scrollId',
  'sort',
  'sortCriteria',
  'sortOrder',
  'systemMetadata',
  'skipCache',
  'includeSoftDelete',
  'pitKeepAlive',
]);
const GET_PARAMS = new Set(['aspectNames', 'aspects', 'systemMetadata']);

/** aspectNames and aspects together; none means every versioned aspect of the entity. */
function aspectNames(spec: EntitySpec, q: Query): string[] {
  const named = [...new Set([...list(q.aspectNames), ...list(q.aspects)].flatMap((a) => a.split(',')).filter((a) => a !== ''))];
  for (const a of named) if (!findAspectSpec(spec.name, a)) throw badRequest(`Query parameter 'aspectNames': ${spec.name} has no aspect ${a}`);
  return named.length > 0 ? named : versionedAspects(spec);
}

/** DataHub's GenericEntityV2: the urn and `{aspect: {value, systemMetadata?}}`. */
export const entityV2 = (urn: string, aspects: readonly StoredAspect[], withSystemMetadata: boolean) => ({
  urn,
  aspects: Object.fromEntries(aspects.map((a) => [a.aspect, aspectView(a, withSystemMetadata)])),
});

/**
 * DataHub's scroll of one entity type by query string (GenericEntitiesController.getEntities, v2 and v3 alike): the
 * query in DataHub's query language, read through the search index, and the aspects named (every versioned one when
 * none) of each entity on the page.
 */
export async function scrollOfType(ctx: AppContext, entityName: string, q: Query) {
  acceptParams(q, SCROLL_PARAMS);
  const spec = entitySpec(entityName);
  const count = countParam(q);
  const aspects = aspectNames(spec, q);
  const withSystemMetadata = flag(q, 'systemMetadata');
  flag(q, 'skipCache');
  const page = await ctx.search.scroll(
    {
      entityTypes: [spec.name],
      query: fullTextQuery(one(q, 'query')),
      filter: [],
      includeSoftDeleted: flag(q, 'includeSoftDelete'),
      sort: sortOf(q),
    },
    one(q, 'scrollId'),
    count,
  );
  const stored = await ctx.catalog.getEntities(
    page.hits.map((h) => h.urn),
    aspects,
  );
  return { page, stored, withSystemMetadata };
}

/** DataHub's OpenAPI v2 entity scroll and get, as datahub-gc's execution request cleanup reads them. */
export const openapiV2Routes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    app.get<{ Params: { entityName: string }; Querystring: Query }>('/openapi/v2/entity/:entityName', async (req) => {
      const { page, stored, withSystemMetadata } = await scrollOfType(ctx, req.params.entityName, req.query);
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
