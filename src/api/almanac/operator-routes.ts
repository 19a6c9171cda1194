import type { FastifyPluginAsync } from 'fastify';
import { ADMIN_URN } from '../../auth/principal.ts';
import type { AppContext } from '../context.ts';

/** What operators and orchestrators poll: readiness (liveness is /health) and Prometheus metrics. */
export const operatorRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    // Ready when the process accepts work and the database answers; 503 while it shuts down or the database is away.
    app.get('/ready', { config: { public: true } }, async (_req, reply) => {
      if (!ctx.accepting()) return reply.code(503).send({ status: 'shutting down' });
      try {
        await ctx.catalog.exists(ADMIN_URN);
      } catch {
        return reply.code(503).send({ status: 'database unavailable' });
      }
      return { status: 'ready' };
    });

    if (ctx.config.metricsEnabled) {
      app.get('/metrics', { config: { public: !ctx.config.metricsAuth } }, async (_req, reply) =>
        reply.type(ctx.metrics.registry.contentType).send(await ctx.metrics.registry.metrics()),
      );
    }
  };
