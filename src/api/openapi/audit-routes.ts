import type { FastifyPluginAsync } from 'fastify';
import { badRequest } from '../../catalog/errors.ts';
import type { AppContext } from '../context.ts';

const PARAMS = new Set(['startTime', 'endTime', 'size', 'scrollId', 'includeRaw']);

function integer(query: Record<string, string | undefined>, name: string): number | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  if (!/^-?\d{1,16}$/.test(raw)) throw badRequest(`Query parameter '${name}' must be an integer, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

/** DataHub's audit event search (its ExternalEventsController): who signed in, and who changed tokens, users, roles, groups and policies. */
export const auditRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    app.post<{ Querystring: Record<string, string | undefined> }>('/openapi/v1/events/audit/search', async (req) => {
      const unknown = Object.keys(req.query).find((k) => !PARAMS.has(k));
      if (unknown) throw badRequest(`Unknown query parameter '${unknown}'; this route takes ${[...PARAMS].join(', ')}`);
      const includeRaw = req.query.includeRaw ?? 'true';
      if (includeRaw !== 'true' && includeRaw !== 'false') throw badRequest(`Query parameter 'includeRaw' must be true or false`);
      return ctx.auditTrail.search(req.principal, {
        body: req.body,
        startTime: integer(req.query, 'startTime'),
        endTime: integer(req.query, 'endTime'),
        size: integer(req.query, 'size'),
        scrollId: req.query.scrollId,
        includeRaw: includeRaw === 'true',
      });
    });
  };
