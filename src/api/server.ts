import crypto from 'node:crypto';
import { runWithAuditOrigin } from '../auth/audit-events.ts';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { CatalogError } from '../catalog/errors.ts';
import { jsonNestsDeeper, tooDeepMessage } from '../catalog/json-depth.ts';
import { prototypeKeyAt, prototypeKeyMessage } from '../catalog/untrusted-keys.ts';
import type { Principal } from '../auth/principal.ts';
import type { AppContext } from './context.ts';
import { fromFrameworkError, restliError, sendRestliError } from './errors.ts';
import { GMS_ROUTES, ROOT_ROUTES } from './routes.ts';
import { unstorableTextAt } from './storable-text.ts';
import { isExpensiveRoute, registerRateLimit } from './rate-limit.ts';
import { WriteBudget } from './write-budget.ts';
import { refuseCrossSiteCookieWrite } from './cross-site.ts';
import { authFailureReason } from './metrics.ts';
import { noteFailure, RequestLogController } from './request-log.ts';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export interface ServerOptions {
  readonly logger: Logger;
}

/** A client the HTTP parser gave up on (timeout, huge headers, garbage): one Rest.li error, then the socket closes. */
function clientError(this: FastifyInstance, err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, body } = restliError(fromFrameworkError(err) ?? new CatalogError('BAD_REQUEST', 'Malformed HTTP request'));
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` +
        `X-RestLi-Error-Response: true\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy();
}

export async function buildServer(ctx: Omit<AppContext, 'logger'>, options: ServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    logController: new RequestLogController(ctx.config.slowRequestMillis),
    bodyLimit: ctx.config.bodyLimitBytes,
    requestTimeout: ctx.config.http.requestTimeoutMillis,
    keepAliveTimeout: ctx.config.http.keepAliveTimeoutMillis,
    // Node checks both timeouts on this interval (30 s by default), so it bounds how late they bite.
    http: {
      headersTimeout: ctx.config.http.headersTimeoutMillis,
      connectionsCheckingInterval: Math.min(1000, ctx.config.http.headersTimeoutMillis / 2),
    },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : crypto.randomUUID();
    },
    // Urns travel in paths, percent-encoded: real dataset and schemaField urns run far past Fastify's default of 100.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 8192 },
    // Errors the router and Node's HTTP parser raise before any route or hook runs keep the Rest.li shape too.
    frameworkErrors: (err, req, reply) => {
      const known = fromFrameworkError(err);
      noteFailure(req, err, known);
      return sendRestliError(reply, known);
    },
    clientErrorHandler: clientError,
  });
  const context: AppContext = { ...ctx, logger: app.log };

  // curl runbooks often omit Content-Type; every body is read as JSON, bounded by bodyLimit.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, undefined);
    if (jsonNestsDeeper(text)) return done(new CatalogError('BAD_REQUEST', tooDeepMessage('Request body')), undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return done(new CatalogError('BAD_REQUEST', 'Request body is not valid JSON'), undefined);
    }
    const protoKey = prototypeKeyAt(text, parsed);
    if (protoKey !== undefined) return done(new CatalogError('BAD_REQUEST', prototypeKeyMessage(protoKey)), undefined);
    const bad = unstorableTextAt(text, parsed);
    if (bad !== undefined) {
      return done(
        new CatalogError('BAD_REQUEST', `Field '${bad || '(body)'}' contains U+0000 or an unpaired surrogate, which cannot be stored`),
        undefined,
      );
    }
    done(null, parsed);
  });

  app.decorateRequest('principal', null as unknown as Principal);
  app.decorateRequest('writes', null as unknown as WriteBudget);
  // The request's origin, for the audit events the services record while answering it (auth/audit-events.ts).
  // Read replicas: the request's reads must see what was committed before it arrived (storage/read-routing.ts).
  const { readScope } = ctx;
  if (readScope) app.addHook('onRequest', (_req, _reply, done) => readScope(() => done()));
  app.addHook('onRequest', (req, _reply, done) => runWithAuditOrigin(auditOrigin(req.url, req.ip, req.headers['user-agent']), () => done()));
  app.addHook('onRequest', async (req, reply) => {
    reply.header('X-Request-Id', req.id);
    req.writes = new WriteBudget(ctx.config.maxWritesPerRequest);
    if (req.url.includes('%00')) throw new CatalogError('BAD_REQUEST', 'The request path or query contains U+0000, which cannot be stored');
    if (req.routeOptions.config?.public) return;
    // Every other path needs credentials, served or not: a stranger gets 401, never a map of the routes.
    try {
      req.principal = await context.authenticator.authenticate(req.headers.authorization, req.headers.cookie);
    } catch (e) {
      // Close the connection after the 401 instead of reading the rest of a stranger's body.
      reply.header('Connection', 'close');
      if (e instanceof CatalogError) context.metrics.authFailures.inc({ reason: authFailureReason(e.message) });
      throw e;
    }
    if (req.principal.viaCookie) refuseCrossSiteCookieWrite(req, ctx.config.publicUrl);
  });

  // While the server drains, each answer closes its connection: an idle keep-alive socket would hold the stop up to
  // the keep-alive timeout after the last request ends.
  app.addHook('onSend', async (_req, reply) => {
    if (!ctx.accepting()) reply.header('Connection', 'close');
  });

  const limitExpensive = await registerRateLimit(app, ctx.config.rateLimit);
  app.decorate('limitExpensive', limitExpensive);
  app.addHook('preHandler', async (req, reply) => {
    if (isExpensiveRoute(req)) await limitExpensive(req, reply);
  });

  if (ctx.config.metricsEnabled) {
    app.addHook('onResponse', async (req, reply) => {
      const route = req.routeOptions.url ?? 'unmatched';
      context.metrics.requests.observe({ route, method: req.method, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    });
  }

  app.setErrorHandler((err, req, reply) => {
    const known = fromFrameworkError(err);
    noteFailure(req, err, known);
    return sendRestliError(reply, known);
  });
  app.setNotFoundHandler((req, reply) => {
    const missing = new CatalogError('NOT_FOUND', `No resource for ${req.method} ${req.url.split('?')[0]}`);
    noteFailure(req, missing, missing);
    return sendRestliError(reply, missing);
  });

  app.server.maxConnections = ctx.config.http.maxConnections;

  for (const prefix of ['', '/api/gms']) {
    await app.register(
      async (scope) => {
        for (const plugin of GMS_ROUTES) await scope.register(plugin(context));
      },
      { prefix },
    );
  }
  for (const plugin of ROOT_ROUTES) await app.register(plugin(context));
  return app;
}

/** DataHub's EventSource of a request: its GraphQL, OpenAPI or Rest.li surface. */
function auditOrigin(url: string, sourceIP: string, userAgent: string | undefined) {
  const path = url.replace(/^\/api\/gms(?=\/)/, '');
  const eventSource = path.includes('/graphql') ? 'GRAPHQL' : path.startsWith('/openapi/') ? 'OPENAPI' : 'RESTLI';
  return { sourceIP, eventSource, ...(userAgent ? { userAgent } : {}) };
}
