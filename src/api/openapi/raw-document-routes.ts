import type { FastifyPluginAsync } from 'fastify';
import { badRequest } from '../../catalog/errors.ts';
import { parseUrn } from '../../catalog/urn.ts';
import type { AppContext } from '../context.ts';

/**
 * DataHub's raw search documents (ElasticsearchRawController, `POST /openapi/operations/elasticSearch/entity/raw`):
 * a list of urns in, each indexed one's document out, keyed by urn. Almanac's document is what its search index
 * holds for the entity (storage/ports/search.ts), field by field. MANAGE_SYSTEM_OPERATIONS, as in DataHub.
 */
export const rawDocumentRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    app.post('/openapi/operations/elasticSearch/entity/raw', async (req) => {
      await ctx.authorizer.require(req.principal, 'readRawSearchDocuments');
      const body = req.body;
      if (!Array.isArray(body) || body.some((u) => typeof u !== 'string')) throw badRequest('The body must be a JSON list of urns');
      const urns = [...new Set(body as string[])];
      for (const urn of urns) parseUrn(urn);
      return ctx.search.rawDocuments(urns);
    });
  };
