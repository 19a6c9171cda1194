import type { FastifyPluginAsync } from 'fastify';
import { badRequest } from '../../catalog/errors.ts';
import type { LineageDirection } from '../../catalog/relationships/lineage-registry.ts';
import type { RelationshipDirection } from '../../storage/store.ts';
import type { AppContext } from '../context.ts';
import { aspectList } from './aspect-list.ts';
import { acceptOnly, actionBody, intParam, MAX_INT, stringParam, unknownAction, type ActionBody } from './params.ts';

const DEFAULT_COUNT = 100;

/** `types=List(a,b)` (Rest.li 2.0) or `types=a&types=b` (1.0). */
function typesParam(v: unknown): string[] {
  if (v === undefined) throw badRequest("Parameter 'types' is required");
  const values = Array.isArray(v) ? v : [v];
  if (!values.every((s) => typeof s === 'string')) throw badRequest("Parameter 'types' must be a list of relationship types");
  return (values as string[]).flatMap((s) => (s.startsWith('List(') ? (aspectList(s) ?? []) : [s]));
}

function direction<T extends string>(v: string, allowed: readonly T[]): T {
  if (!allowed.includes(v as T)) throw badRequest(`Parameter 'direction' must be ${allowed.join(' or ')}, got ${v}`);
  return v as T;
}

/**
 * Rest.li `relationships` (DataHub's com.linkedin.lineage.relationships): GET, one hop from an entity, and the
 * getLineage action, a walk of several hops.
 */
export const relationshipsRestliRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const { relationships } = ctx;
    app.get<{ Querystring: Record<string, unknown> }>('/relationships', async (req) => {
      const q = req.query as ActionBody;
      const extra = Object.keys(q).find((k) => !['urn', 'types', 'direction', 'start', 'count'].includes(k));
      if (extra !== undefined) throw badRequest(`Unknown query parameter '${extra}'; this route takes urn, types, direction, start, count`);
      const result = await relationships.relatedEntities({
        urn: stringParam(q, 'urn', true),
        types: typesParam(q.types),
        direction: direction<RelationshipDirection>(stringParam(q, 'direction', true), ['INCOMING', 'OUTGOING']),
        start: intParam(q, 'start', { min: 0, max: MAX_INT }) ?? 0,
        count: intParam(q, 'count', { max: MAX_INT }) ?? DEFAULT_COUNT,
      });
      return {
        start: result.start,
        count: result.count,
        total: result.total,
        relationships: result.entities.map((e) => ({ entity: e.urn, type: e.relationshipType })),
      };
    });

    app.post<{ Querystring: { action?: string } }>('/relationships', async (req) => {
      if (req.query.action !== 'getLineage') throw unknownAction('relationships', req.query.action);
      const body = actionBody(req.body);
      acceptOnly(body, req.query, 'getLineage', ['urn', 'direction', 'start', 'count', 'maxHops']);
      const value = await relationships.lineage({
        urn: stringParam(body, 'urn', true),
        direction: direction<LineageDirection>(stringParam(body, 'direction', true), ['UPSTREAM', 'DOWNSTREAM']),
        start: intParam(body, 'start', { min: 0, max: MAX_INT }) ?? 0,
        count: intParam(body, 'count', { max: MAX_INT }) ?? DEFAULT_COUNT,
        maxHops: intParam(body, 'maxHops', { min: 1, max: MAX_INT }) ?? 1,
      });
      return { value };
    });
  };
