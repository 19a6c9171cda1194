import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.ts';
import type { AppContext } from '../context.ts';

/**
 * DataHub's configuration properties that describe how Almanac behaves, under DataHub's names, so a client that
 * adapts to a server's settings (DataHub's smoke suite asks whether view authorization is on) reads Almanac's
 * answer. Only properties whose meaning Almanac keeps are listed; none is a secret.
 */
export const systemProperties = (config: Config): Record<string, string> => ({
  // Requests need a token or a session unless the operator turned authentication off.
  'authentication.enabled': String(config.authEnabled),
  // Every signed-in user reads every entity page: no policy hides one (DataHub's VIEW_AUTHORIZATION_ENABLED=false).
  'authorization.view.enabled': 'false',
  // Writes over Rest.li and OpenAPI are checked against roles and policies.
  'authorization.restApiAuthorization': 'true',
  // An asset may belong to several data products (batchAddToDataProducts leaves its other products).
  'featureFlags.multipleDataProductsPerAsset': 'true',
});

/**
 * DataHub's `GET /openapi/v1/system-info/properties/simple` (SystemInfoController): the server's configuration as a
 * flat map of property to value, for MANAGE_SYSTEM_OPERATIONS, refused with DataHub's message otherwise.
 */
export const systemInfoRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    app.get('/openapi/v1/system-info/properties/simple', async (req) => {
      await ctx.authorizer.require(req.principal, 'readSystemInfo');
      return systemProperties(ctx.config);
    });
  };
