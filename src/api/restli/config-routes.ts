import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.ts';
import { timeseriesAspectPairs } from '../../catalog/registry/index.ts';

export const ALMANAC_VERSION = '0.1.0';

/** `/config` (the emitter requires noCode "true" to know it reached GMS) and `/health`. */
export const configRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    app.get('/health', { config: { public: true } }, async () => ({ status: 'ok' }));
    // DataHub's frontend health page, which its smoke tests poll before they start.
    app.get('/admin', { config: { public: true } }, async (_req, reply) => reply.type('text/plain; charset=utf-8').send('GOOD'));

    app.get('/config', { config: { public: true } }, async () => ({
      noCode: 'true',
      statefulIngestionCapable: true,
      patchCapable: true,
      retention: 'true',
      supportsImpactAnalysis: false,
      timeZone: 'GMT',
      versions: { 'acryldata/datahub': { version: 'v0.14.0', commit: 'almanac' }, almanac: { version: ALMANAC_VERSION } },
      almanac: {
        version: ALMANAC_VERSION,
        backend: ctx.catalog.backend,
        authEnabled: ctx.config.authEnabled,
        timeseriesIndices: timeseriesAspectPairs(),
      },
    }));
  };
