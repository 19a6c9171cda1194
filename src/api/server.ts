import crypto from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyPluginAsync, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { CatalogError } from '../catalog/errors.ts';
import type { Principal } from '../auth/principal.ts';
import type { AppContext } from './context.ts';
import { fromFrameworkError, sendRestliError } from './errors.ts';
import { configRoutes } from './restli/config-routes.ts';
import { aspectsRoutes } from './restli/aspects-routes.ts';
import { entitiesRoutes } from './restli/entities-routes.ts';
import { entitiesV2Routes } from './restli/entities-v2-routes.ts';
import { openapiRoutes } from './openapi/entity-routes.ts';
import { openapiV2Routes } from './openapi/entity-v2-routes.ts';
import { loginRoutes } from './login-routes.ts';
import { consoleRoutes } from './console-routes.ts';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** One access-log line per request, when it completes; the arrival line only at debug level. */
class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }
}

/** Route plugins reachable both GMS-style (/x) and through the frontend proxy's /api/gms/x. */
export const GMS_ROUTES: ReadonlyArray<(ctx: AppContext) => FastifyPluginAsync> = [configRoutes, aspectsRoutes, entitiesRoutes, entitiesV2Routes, openapiRoutes, openapiV2Routes, loginRoutes];

export interface ServerOptions {
  readonly logger: Logger;
  /** Extra GMS route plugins (operations, GraphQL, ...), mounted under both path forms. */
  readonly plugins?: ReadonlyArray<(ctx: AppContext) => FastifyPluginAsync>;
}

export async function buildServer(ctx: Omit<AppContext, 'logger'>, options: ServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    logController: new RequestLogController(),
    bodyLimit: ctx.config.bodyLimitBytes,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : crypto.randomUUID();
    },
    // Urns travel in paths, percent-encoded: real dataset and schemaField urns run far past Fastify's default of 100.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 8192 },
  });
  const context: AppContext = { ...ctx, logger: app.log };

  // curl runbooks often omit Content-Type; every body is read as JSON, bounded by bodyLimit.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new CatalogError('BAD_REQUEST', 'Request body is not valid JSON'), undefined);
    }
  });

  app.decorateRequest('principal', null as unknown as Principal);
  app.addHook('onRequest', async (req, reply) => {
    reply.header('X-Request-Id', req.id);
    if (req.routeOptions.config?.public) return;
    if (req.routeOptions.url === undefined) return; // 404s answer without a token check
    req.principal = await context.authenticator.authenticate(req.headers.authorization);
  });

  app.setErrorHandler((err, req, reply) => {
    const known = fromFrameworkError(err);
    if (!known || known.code === 'INTERNAL') req.log.error({ err }, 'request failed');
    else req.log.info({ code: known.code, msg: known.message }, 'request rejected');
    return sendRestliError(reply, known);
  });
  app.setNotFoundHandler((req, reply) =>
    sendRestliError(reply, new CatalogError('NOT_FOUND', `No resource for ${req.method} ${req.url.split('?')[0]}`)),
  );

  const plugins = [...GMS_ROUTES, ...(options.plugins ?? [])];
  for (const prefix of ['', '/api/gms']) {
    await app.register(
      async (scope) => {
        for (const plugin of plugins) await scope.register(plugin(context));
      },
      { prefix },
    );
  }
  await app.register(consoleRoutes());
  return app;
}
