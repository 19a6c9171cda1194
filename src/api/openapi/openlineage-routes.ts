import type { FastifyPluginAsync } from 'fastify';
import { parseOpenLineageEvent } from '../../catalog/openlineage/event.ts';
import { openLineageProposals } from '../../catalog/openlineage/to-proposals.ts';
import type { AppContext } from '../context.ts';
import { requireIngest } from '../guards.ts';
import { acceptQuery } from '../query-params.ts';
import { tracedWrite } from './write-traces.ts';

/** DataHub's path, and the one OpenLineage's HTTP transport posts to unless told otherwise. */
export const OPENLINEAGE_PATHS = ['/openapi/openlineage/api/v1/lineage', '/api/v1/lineage'] as const;

/**
 * DataHub's LineageApiImpl: one OpenLineage event (run, job or dataset event) becomes the proposals DataHub's converter
 * makes of it, checked and written in one transaction under the ingestion guard; 202 with no body, as DataHub answers.
 */
export const openLineageRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    for (const path of OPENLINEAGE_PATHS) {
      app.post(path, async (req, reply) => {
        acceptQuery(req.query, {});
        const proposals = openLineageProposals(parseOpenLineageEvent(req.body));
        req.writes.take(proposals.length, 'body');
        await requireIngest(ctx, req.principal, proposals);
        await tracedWrite(ctx, reply, proposals, (traced) => ctx.catalog.ingest(traced, req.principal.actorUrn));
        ctx.metrics.ingested.inc({ route: 'openlineage' }, proposals.length);
        return reply.code(202).send();
      });
    }
  };
