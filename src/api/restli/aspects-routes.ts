import type { FastifyPluginAsync } from 'fastify';
import { badRequest, notFound } from '../../catalog/errors.ts';
import { DEFAULT_TIMESERIES_LIMIT } from '../../catalog/catalog.ts';
import { parseProposal } from '../../catalog/proposals.ts';
import { aspectClassOf } from '../../catalog/snapshot.ts';
import type { AppContext } from '../context.ts';
import { requireIngest } from '../guards.ts';
import { acceptOnly, actionBody, boolParam, intParam, requireParam, stringParam, unknownAction } from './params.ts';

/** DataHub's EnvelopedAspect: the aspect JSON as a string, as the emitter reads it. */
const envelope = (value: unknown, systemMetadata: unknown) => ({
  aspect: { value: JSON.stringify(value), contentType: 'application/json' },
  ...(systemMetadata ? { systemMetadata } : {}),
});

/** Values are always newest first; a sort asking for anything else is refused rather than ignored. */
function checkNewestFirst(sort: unknown): void {
  if (sort === undefined || sort === null) return;
  const s = sort as { field?: unknown; order?: unknown };
  if (!['timestampMillis', '@timestamp'].includes(s.field as string) || (s.order ?? 'DESCENDING') !== 'DESCENDING') {
    throw badRequest(`Parameter 'sort' ${JSON.stringify(sort)} is not supported: values come newest first (timestampMillis DESCENDING)`);
  }
}

/** Rest.li `aspects` resource: ingestion and timeseries reads. */
export const aspectsRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    app.post<{ Querystring: { action?: string } }>('/aspects', async (req) => {
      const body = actionBody(req.body);
      switch (req.query.action) {
        case 'ingestProposal': {
          acceptOnly(body, req.query, 'ingestProposal', ['proposal', 'async']);
          const proposal = parseProposal(requireParam(body, 'proposal'), 'proposal');
          req.writes.take(1, 'proposal');
          await requireIngest(ctx, req.principal, [proposal]);
          await ctx.catalog.ingest([proposal], req.principal.actorUrn);
          ctx.metrics.ingested.inc({ route: 'ingestProposal' });
          return { value: 'success' };
        }
        case 'ingestProposalBatch': {
          acceptOnly(body, req.query, 'ingestProposalBatch', ['proposals', 'async']);
          const list = requireParam(body, 'proposals');
          if (!Array.isArray(list)) throw badRequest("Parameter 'proposals' must be an array");
          req.writes.take(list.length, 'proposals');
          const proposals = list.map((p, i) => parseProposal(p, `proposals[${i}]`));
          await requireIngest(ctx, req.principal, proposals);
          await ctx.catalog.ingest(proposals, req.principal.actorUrn, (i) => `proposals[${i}]`);
          ctx.metrics.ingested.inc({ route: 'ingestProposalBatch' }, proposals.length);
          return { value: 'success' };
        }
        case 'getTimeseriesAspectValues': {
          const urn = stringParam(body, 'urn', true);
          const entityName = stringParam(body, 'entity', true);
          const aspectName = stringParam(body, 'aspect', true);
          const startTimeMillis = intParam(body, 'startTimeMillis');
          const endTimeMillis = intParam(body, 'endTimeMillis');
          const latestValue = boolParam(body, 'latestValue') ?? false;
          const limit = latestValue ? 1 : (intParam(body, 'limit', { min: 1, max: DEFAULT_TIMESERIES_LIMIT }) ?? DEFAULT_TIMESERIES_LIMIT);
          checkNewestFirst(body.sort);
          const query = { urn, entityType: entityName, aspect: aspectName, startTimeMillis, endTimeMillis, limit, filter: body.filter };
          const values = await ctx.catalog.timeseriesValues(query);
          return {
            value: {
              entityName,
              aspectName,
              ...(startTimeMillis !== undefined ? { startTimeMillis } : {}),
              ...(endTimeMillis !== undefined ? { endTimeMillis } : {}),
              limit,
              values: values.map((v) => envelope(v.event, v.systemMetadata)),
            },
          };
        }
        default:
          throw unknownAction('aspects', req.query.action);
      }
    });

    app.get<{ Params: { urn: string }; Querystring: { aspect?: string; version?: string } }>('/aspects/:urn', async (req) => {
      const aspect = req.query.aspect;
      if (!aspect) throw badRequest("Parameter 'aspect' is required");
      const version = intParam({ version: req.query.version ?? '0' }, 'version', { min: 0 })!;
      const found = await ctx.catalog.getAspect(req.params.urn, aspect, version);
      if (!found) throw notFound(`Aspect ${aspect} version ${version} of ${req.params.urn} not found`);
      return {
        urn: found.urn,
        version: found.version,
        aspect: { [aspectClassOf(found.aspect)]: found.value },
        created: { time: found.createdOn, actor: found.createdBy },
        ...(found.systemMetadata ? { systemMetadata: found.systemMetadata } : {}),
      };
    });
  };
