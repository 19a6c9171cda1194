import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.ts';
import { ALMANAC_VERSION } from '../version.ts';
import { DATAHUB_REGISTRY, timeseriesAspectPairs } from '../../catalog/registry/index.ts';

/** The acryl-datahub release whose schemas the registry was generated from: the DataHub API Almanac implements. */
export const DATAHUB_API_VERSION: string = DATAHUB_REGISTRY.source.version;

/**
 * `/config` as DataHub's GMS answers it (its Config servlet), each key answered for Almanac. Clients read: noCode
 * ("true": the emitter knows it reached GMS), statefulIngestionCapable, patchCapable, supportsImpactAnalysis,
 * managedIngestion.enabled, datahub.serverEnv ("core": not DataHub Cloud, so features are gated on the core release
 * numbers), versions["acryldata/datahub"] (the version gates; the commit invalidates the SDK's cached GraphQL schema).
 */
export const configRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    app.get('/health', { config: { public: true } }, async () => ({ status: 'ok' }));
    // DataHub's frontend health page, which its smoke tests poll before they start.
    app.get('/admin', { config: { public: true } }, async (_req, reply) => reply.type('text/plain; charset=utf-8').send('GOOD'));

    app.get('/config', { config: { public: true } }, async () => ({
      noCode: 'true',
      retention: 'true',
      statefulIngestionCapable: true,
      patchCapable: true,
      // Lineage walks of any number of hops (searchAcrossLineage), DataHub's multi-hop graph support.
      supportsImpactAnalysis: true,
      timeZone: 'GMT',
      // Dataset names are stored as sent, never lowercased (DataHub's DATAHUB_DATASET_URN_TO_LOWER unset).
      datasetUrnNameCasing: false,
      // Almanac runs no ingestion itself: recipes run with the datahub CLI.
      managedIngestion: { enabled: false, defaultCliVersion: DATAHUB_API_VERSION },
      // Almanac collects no telemetry and asks its clients to send none.
      telemetry: { enabledCli: false, enabledIngestion: false },
      datahub: { serverType: 'almanac', serverEnv: 'core' },
      // No plugin entity registries: the registry is DataHub's own, generated at build time.
      models: {},
      versions: {
        'acryldata/datahub': { version: `v${DATAHUB_API_VERSION}`, commit: `almanac-${ALMANAC_VERSION}` },
        almanac: { version: ALMANAC_VERSION },
      },
      almanac: {
        version: ALMANAC_VERSION,
        backend: ctx.catalog.backend,
        authEnabled: ctx.config.authEnabled,
        timeseriesIndices: timeseriesAspectPairs(),
      },
    }));
  };
