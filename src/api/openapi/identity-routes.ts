import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.ts';
import { acceptQuery } from '../query-params.ts';

/**
 * DataHub's "who am I" (IdController): `GET /openapi/operations/identity/user/urn`
 * answers `{"urn": <the caller's urn>}`. `skipCache` is accepted and has no
 * effect: Almanac caches no authorization decision across requests.
 */
export const identityRoutes =
  (_ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    app.get('/openapi/operations/identity/user/urn', async (req) => {
      acceptQuery(req.query, { skipCache: ['true', 'false'] });
      return { urn: req.principal.actorUrn };
    });
  };
