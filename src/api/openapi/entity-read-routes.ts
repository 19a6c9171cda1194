import type { FastifyPluginAsync } from 'fastify';
import { badRequest } from '../../catalog/errors.ts';
import { allEntitySpecs, entitySpec, findAspectSpec, type EntitySpec } from '../../catalog/registry/index.ts';
import type { SearchCriterion, SearchFilter, SortCriterion } from '../../catalog/search/search-filter.ts';
import { fullTextQuery } from '../../catalog/search/search-filter.ts';
import { parseUrn } from '../../catalog/urn.ts';
import type { StoredAspect } from '../../storage/store.ts';
import type { AppContext } from '../context.ts';
import { entityV2, scrollOfType } from './entity-v2-routes.ts';
import { acceptParams, aspectView, countParam, flag, one, sortOf, versionedAspects, withoutUrnOrder, type Query } from './read-params.ts';

/** The query parameters of DataHub's v3 scroll (v3 EntityController.scrollEntities). */
const SCROLL_PARAMS = new Set([
  'count',
  'query',
  'scrollId',
  'sort',
  'sortCriteria',
  'sortOrder',
  'systemMetadata',
  'skipCache',
  'skipAggregation',
  'includeSoftDelete',
  'scrollIdPerEntity',
  'sliceId',
  'sliceMax',
  'pitKeepAlive',
]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function stringList(v: unknown, path: string): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw badRequest(`'${path}' must be a list of strings`);
  return v as string[];
}

/** The v3 body's filter: `{"and": [{"criteria": [{field, values, condition?, negated?}]}]}`, the groups ORed. */
function filterOf(v: unknown): SearchFilter {
  if (v === undefined || v === null) return [];
  if (!isObject(v) || (v.and !== undefined && v.and !== null && !Array.isArray(v.and)))
    throw badRequest(`'filter' must be {"and": [{"criteria": [...]}]}`);
  return ((v.and ?? []) as unknown[]).map((group, g) => {
    if (!isObject(group) || !Array.isArray(group.criteria)) throw badRequest(`'filter.and[${g}].criteria' must be a list`);
    return group.criteria.map((c: unknown, i: number): SearchCriterion => {
      const path = `filter.and[${g}].criteria[${i}]`;
      if (!isObject(c) || typeof c.field !== 'string') throw badRequest(`'${path}.field' is required and must be a string`);
      if (c.condition !== undefined && c.condition !== null && typeof c.condition !== 'string')
        throw badRequest(`'${path}.condition' must be a string`);
      if (c.negated !== undefined && c.negated !== null && typeof c.negated !== 'boolean')
        throw badRequest(`'${path}.negated' must be true or false`);
      return {
        field: c.field,
        values: stringList(c.values, `${path}.values`) ?? [],
        ...(c.condition ? { condition: c.condition } : {}),
        ...(c.negated ? { negated: true } : {}),
      };
    });
  });
}

/** Body sortCriteria (`[{field, order}]`) win over the deprecated query-string sort, as in DataHub. */
function sortCriteriaOf(v: unknown, q: Query): SortCriterion[] {
  if (v === undefined || v === null) return sortOf(q);
  if (!Array.isArray(v)) throw badRequest(`'sortCriteria' must be a list of {"field", "order"}`);
  return withoutUrnOrder(
    v.map((c: unknown, i: number) => {
      const order = isObject(c) ? (c.order ?? 'ASCENDING') : undefined;
      if (!isObject(c) || typeof c.field !== 'string') throw badRequest(`'sortCriteria[${i}].field' is required and must be a string`);
      if (order !== 'ASCENDING' && order !== 'DESCENDING') throw badRequest(`'sortCriteria[${i}].order' must be ASCENDING or DESCENDING`);
      return { field: c.field, order };
    }),
  );
}

/** Parallel slices and per-entity scroll ids are Elasticsearch features: refused rather than answered unsliced. */
function refuseUnsupported(q: Query): void {
  if (one(q, 'sliceId') !== undefined || one(q, 'sliceMax') !== undefined)
    throw badRequest(`Query parameters 'sliceId' and 'sliceMax' are not supported by Almanac; scroll without slices`);
  if (flag(q, 'scrollIdPerEntity')) throw badRequest(`Query parameter 'scrollIdPerEntity=true' is not supported by Almanac`);
  flag(q, 'skipCache');
  flag(q, 'skipAggregation');
}

/** Aspects asked for: none named is every versioned aspect of each type; each named one must belong to some type. */
function aspectsFor(specs: readonly EntitySpec[], named: readonly string[]): string[] {
  if (named.length === 0) return [...new Set(specs.flatMap(versionedAspects))];
  for (const a of named)
    if (!specs.some((s) => findAspectSpec(s.name, a))) throw badRequest(`'aspects': no entity type asked for has an aspect ${a}`);
  return [...named];
}

/** DataHub's GenericEntityV3: the urn and each aspect under its name. */
const entityV3 = (urn: string, aspects: readonly StoredAspect[], withSystemMetadata: boolean) => ({
  urn,
  ...Object.fromEntries(aspects.map((a) => [a.aspect, aspectView(a, withSystemMetadata)])),
});

/** DataHub's OpenAPI entity reads that acryl-datahub 1.7's DataHubGraph makes: v3 scroll and batch get, v2 batch get. */
export const entityReadRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    app.post<{ Querystring: Query }>('/openapi/v3/entity/scroll', async (req) => {
      acceptParams(req.query, SCROLL_PARAMS);
      refuseUnsupported(req.query);
      const body = req.body ?? {};
      if (!isObject(body)) throw badRequest('Request body must be a JSON object: {"entities", "aspects", "filter", "sortCriteria"}');
      const names = stringList(body.entities, 'entities');
      const specs = names && names.length > 0 ? [...new Set(names.map((n) => entitySpec(n)))] : allEntitySpecs();
      const named = stringList(body.aspects, 'aspects');
      const page = await ctx.search.scroll(
        {
          entityTypes: specs.map((s) => s.name),
          query: fullTextQuery(one(req.query, 'query')),
          filter: filterOf(body.filter),
          includeSoftDeleted: flag(req.query, 'includeSoftDelete'),
          sort: sortCriteriaOf(body.sortCriteria, req.query),
        },
        one(req.query, 'scrollId'),
        countParam(req.query),
        { total: true },
      );
      const withSystemMetadata = flag(req.query, 'systemMetadata');
      // No aspects asked for (the field absent) answers urns alone, as DataHub does.
      const stored =
        named === undefined
          ? new Map<string, StoredAspect[]>()
          : await ctx.catalog.getEntities(
              page.hits.map((h) => h.urn),
              aspectsFor(specs, named),
            );
      return {
        entities: page.hits.map((h) => entityV3(h.urn, stored.get(h.urn) ?? [], withSystemMetadata)),
        scrollId: page.nextScrollId ?? null,
        totalCount: await page.total(),
        facets: [],
      };
    });

    app.get<{ Params: { entityName: string }; Querystring: Query }>('/openapi/v3/entity/:entityName', async (req) => {
      const { page, stored, withSystemMetadata } = await scrollOfType(ctx, req.params.entityName, req.query);
      return {
        entities: page.hits.map((h) => entityV3(h.urn, stored.get(h.urn) ?? [], withSystemMetadata)),
        scrollId: page.nextScrollId ?? null,
        totalCount: await page.total(),
      };
    });

    app.post<{ Params: { entityName: string }; Querystring: Query }>('/openapi/v3/entity/:entityName/batchGet', async (req) => {
      acceptParams(req.query, new Set(['systemMetadata']));
      const spec = entitySpec(req.params.entityName);
      if (!Array.isArray(req.body)) throw badRequest('Request body must be a list of {"urn": ..., "<aspect>": {}}');
      const wanted = new Map<string, string[]>();
      req.body.forEach((item: unknown, i: number) => {
        if (!isObject(item) || typeof item.urn !== 'string') throw badRequest(`'[${i}].urn' is required and must be a string`);
        urnOfType(item.urn, spec, `[${i}].urn`);
        const aspects = Object.keys(item).filter((k) => k !== 'urn');
        for (const a of aspects) if (!findAspectSpec(spec.name, a)) throw badRequest(`'[${i}].${a}': ${spec.name} has no aspect ${a}`);
        wanted.set(item.urn, [...(wanted.get(item.urn) ?? []), ...aspects]);
      });
      const withSystemMetadata = flag(req.query, 'systemMetadata');
      const everything = versionedAspects(spec);
      const found = await Promise.all(
        [...wanted].map(
          async ([urn, aspects]) => [urn, (await ctx.catalog.getEntities([urn], aspects.length > 0 ? aspects : everything)).get(urn)] as const,
        ),
      );
      return found.filter(([, aspects]) => aspects !== undefined).map(([urn, aspects]) => entityV3(urn, aspects!, withSystemMetadata));
    });

    app.post<{ Params: { entityName: string }; Querystring: Query }>('/openapi/v2/entity/batch/:entityName', async (req) => {
      acceptParams(req.query, new Set());
      const spec = entitySpec(req.params.entityName);
      const body = req.body;
      if (!isObject(body)) throw badRequest('Request body must be {"urns": [...], "aspectNames": [...], "withSystemMetadata": false}');
      const urns = stringList(body.urns, 'urns');
      if (!urns) throw badRequest(`'urns' is required`);
      urns.forEach((u, i) => urnOfType(u, spec, `urns[${i}]`));
      const named = stringList(body.aspectNames, 'aspectNames') ?? [];
      for (const a of named) if (!findAspectSpec(spec.name, a)) throw badRequest(`'aspectNames': ${spec.name} has no aspect ${a}`);
      if (body.withSystemMetadata !== undefined && typeof body.withSystemMetadata !== 'boolean')
        throw badRequest(`'withSystemMetadata' must be true or false`);
      const stored = await ctx.catalog.getEntities(urns, named.length > 0 ? named : versionedAspects(spec));
      return { entities: [...new Set(urns)].filter((u) => stored.has(u)).map((u) => entityV2(u, stored.get(u)!, body.withSystemMetadata === true)) };
    });
  };

function urnOfType(urn: string, spec: EntitySpec, path: string): void {
  let type: string;
  try {
    type = entitySpec(parseUrn(urn).entityType).name;
  } catch {
    throw badRequest(`'${path}': ${urn} is not a valid urn`);
  }
  if (type !== spec.name) throw badRequest(`'${path}': ${urn} is not a ${spec.name} urn`);
}
