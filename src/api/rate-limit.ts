import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CatalogError } from '../catalog/errors.ts';
import type { RateLimits } from '../config.ts';

/** Counts one expensive operation against the caller's budget; throws RATE_LIMITED (429) past it. */
export type ExpensiveOperationLimiter = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * Rest.li and OpenAPI operations whose cost grows with the data rather than with
 * the request: scans, walks and truncations. Keyed by method and route (without
 * the /api/gms prefix); a set lists the Rest.li actions that count. Reads and
 * writes by urn, ingestion included, are never limited.
 */
const EXPENSIVE: ReadonlyMap<string, true | ReadonlySet<string>> = new Map<string, true | ReadonlySet<string>>([
  ['POST /operations', new Set(['truncateTimeseriesAspect', 'getIndexSizes'])],
  ['POST /aspects', new Set(['getTimeseriesAspectValues'])],
  ['POST /entities', new Set(['listUrns', 'deleteReferences', 'search', 'searchAcrossEntities', 'scrollAcrossEntities', 'filter', 'list'])],
  ['POST /runs', new Set(['list', 'describe', 'rollback'])],
  ['GET /relationships', true],
  ['POST /relationships', true],
  ['GET /openapi/v2/entity/:entityName', true],
  ['GET /openapi/v3/entity/:entityName', true],
  ['GET /openapi/relationships/v1', true],
  ['POST /openapi/v3/relationship/scroll', true],
  ['POST /openapi/v3/lineage/scroll', true],
  ['POST /openapi/v3/entity/scroll', true],
]);

/** Whether a routed request is one of the expensive Rest.li or OpenAPI operations. */
export function isExpensiveRoute(req: FastifyRequest): boolean {
  const route = req.routeOptions.url;
  if (route === undefined) return false;
  const rule = EXPENSIVE.get(`${req.method} ${route.replace(/^\/api\/gms(?=\/)/, '')}`);
  if (rule === undefined) return false;
  if (rule === true) return true;
  const action = (req.query as { action?: unknown } | undefined)?.action;
  return typeof action === 'string' && rule.has(action);
}

/**
 * One budget per principal (the actor a token or the system client names; the
 * address for the rare public route) shared by every expensive operation, REST
 * and GraphQL alike, in a fixed window kept in this process's memory.
 */
export async function registerRateLimit(app: FastifyInstance, limits: RateLimits): Promise<ExpensiveOperationLimiter> {
  if (limits.max === 0) return async () => undefined;
  await app.register(rateLimit, { global: false });
  const limiter = app.rateLimit({
    max: limits.max,
    timeWindow: limits.windowMillis,
    keyGenerator: (req) => req.principal?.actorUrn ?? `address:${req.ip}`,
    errorResponseBuilder: (req, context) => {
      const retryAfterSeconds = Math.max(1, Math.ceil(context.ttl / 1000));
      const who = req.principal?.actorUrn ?? req.ip;
      return new CatalogError(
        'RATE_LIMITED',
        `Too many expensive requests (search, lineage, scrolls, truncation) for ${who}: at most ${context.max} per ${limits.windowMillis / 1000} s. Try again in ${retryAfterSeconds} s.`,
        { retryAfterSeconds },
      );
    },
  });
  return async (req, reply) => {
    await limiter.call(app, req, reply);
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared budget of expensive operations, for routes that decide per request (GraphQL). */
    limitExpensive: ExpensiveOperationLimiter;
  }
}
