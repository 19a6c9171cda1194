import type { FastifyPluginAsync } from 'fastify';
import { badRequest } from '../../catalog/errors.ts';
import type { LineageDirection } from '../../catalog/relationships/lineage-registry.ts';
import type { RelationshipDirection } from '../../storage/store.ts';
import type { AppContext } from '../context.ts';
import { boolParam, intParam, MAX_INT, stringParam, type ActionBody } from '../restli/params.ts';

type Query = Record<string, unknown>;

/** A repeated query parameter (`a=x&a=y`) as a list; Spring reads `a=x,y` as one value, and so does this. */
function listParam(query: Query, name: string, required = false): string[] | undefined {
  const v = query[name];
  if (v === undefined) {
    if (required) throw badRequest(`Parameter '${name}' is required`);
    return undefined;
  }
  const values = Array.isArray(v) ? v : [v];
  if (!values.every((s) => typeof s === 'string')) throw badRequest(`Parameter '${name}' must be a list of strings`);
  return values as string[];
}

function oneOf<T extends string>(query: Query, name: string, allowed: readonly T[], message: (got: string) => string): T | undefined {
  const v = stringParam(query as ActionBody, name);
  if (v === undefined || v === '') return undefined;
  const upper = v.toUpperCase() as T;
  if (!allowed.includes(upper)) throw badRequest(message(v));
  return upper;
}

function refuseUnknown(query: Query, names: readonly string[]): void {
  const extra = Object.keys(query).find((k) => !names.includes(k));
  if (extra !== undefined) throw badRequest(`Unknown query parameter '${extra}'; this route takes ${names.join(', ')}`);
}

/** Slices split a scroll between parallel readers; one slice is the whole scroll, anything else is refused rather than duplicated. */
function refuseSlices(query: Query): void {
  const sliceMax = intParam(query as ActionBody, 'sliceMax', { min: 1, max: MAX_INT });
  const sliceId = intParam(query as ActionBody, 'sliceId', { min: 0, max: MAX_INT });
  if ((sliceMax ?? 1) > 1 || (sliceId ?? 0) > 0) throw badRequest("Parameters 'sliceId' and 'sliceMax' are not supported: scroll with one reader");
}

const SCROLL_PARAMS = ['count', 'scrollId', 'includeSoftDelete', 'sliceId', 'sliceMax', 'pitKeepAlive'];

function bodyObject(body: unknown, fields: readonly string[]): Record<string, unknown> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Request body must be a JSON object');
  const extra = Object.keys(body).find((k) => !fields.includes(k));
  if (extra !== undefined) throw badRequest(`Unknown field '${extra}' in the request body; it takes ${fields.join(', ')}`);
  return body as Record<string, unknown>;
}

/**
 * DataHub's OpenAPI relationship reads: `/openapi/relationships/v1/` (DataHubGraph.get_related_entities), and the
 * v3 relationship and lineage scrolls (DataHubGraph.scroll_relationships and scroll_lineage).
 */
export const relationshipRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const { relationships } = ctx;
    app.get<{ Querystring: Query }>('/openapi/relationships/v1', async (req) => {
      const q = req.query;
      refuseUnknown(q, ['urn', 'relationshipTypes', 'direction', 'start', 'count']);
      const direction = oneOf<RelationshipDirection>(
        q,
        'direction',
        ['INCOMING', 'OUTGOING'],
        (d) => `Parameter 'direction' must be INCOMING or OUTGOING, got ${d}`,
      );
      if (!direction) throw badRequest("Parameter 'direction' is required");
      return relationships.relatedEntities({
        // Taken as sent: DataHub URL-decodes it a second time, which turns a '+' in a urn into a space.
        urn: stringParam(q as ActionBody, 'urn', true),
        types: listParam(q, 'relationshipTypes', true)!,
        direction,
        start: intParam(q as ActionBody, 'start', { min: 0, max: MAX_INT }) ?? 0,
        count: intParam(q as ActionBody, 'count', { max: MAX_INT }) ?? 200,
      });
    });

    app.post<{ Querystring: Query }>('/openapi/v3/relationship/scroll', async (req) => {
      const q = req.query;
      refuseUnknown(q, ['relationshipTypes', 'sourceTypes', 'destinationTypes', 'direction', ...SCROLL_PARAMS]);
      refuseSlices(q);
      const body = bodyObject(req.body, ['sourceFilter', 'destinationFilter', 'edgeFilter']);
      return relationships.scrollRelationships({
        relationshipTypes: listParam(q, 'relationshipTypes'),
        sourceTypes: listParam(q, 'sourceTypes'),
        destinationTypes: listParam(q, 'destinationTypes'),
        direction:
          oneOf(
            q,
            'direction',
            ['INCOMING', 'OUTGOING', 'UNDIRECTED'] as const,
            (d) => `Direction must be INCOMING, OUTGOING, or UNDIRECTED, got: ${d}`,
          ) ?? 'OUTGOING',
        count: intParam(q as ActionBody, 'count', { max: MAX_INT }),
        scrollId: stringParam(q as ActionBody, 'scrollId'),
        includeSoftDelete: boolParam(q as ActionBody, 'includeSoftDelete') ?? false,
        sourceFilter: body.sourceFilter,
        destinationFilter: body.destinationFilter,
        edgeFilter: body.edgeFilter,
      });
    });

    app.post<{ Querystring: Query }>('/openapi/v3/lineage/scroll', async (req) => {
      const q = req.query;
      refuseUnknown(q, ['relationshipTypes', 'direction', ...SCROLL_PARAMS]);
      refuseSlices(q);
      const body = bodyObject(req.body, ['urns']);
      const urns = body.urns;
      if (urns !== undefined && urns !== null && !(Array.isArray(urns) && urns.every((u) => typeof u === 'string'))) {
        throw badRequest("'urns' must be an array of urns");
      }
      return relationships.scrollLineage({
        urns: (urns as string[] | null | undefined) ?? undefined,
        relationshipTypes: listParam(q, 'relationshipTypes'),
        direction: oneOf<LineageDirection>(q, 'direction', ['UPSTREAM', 'DOWNSTREAM'], (d) => `direction must be UPSTREAM or DOWNSTREAM, got: ${d}`),
        count: intParam(q as ActionBody, 'count', { max: MAX_INT }),
        scrollId: stringParam(q as ActionBody, 'scrollId'),
        includeSoftDelete: boolParam(q as ActionBody, 'includeSoftDelete') ?? false,
      });
    });
  };
