import type { FastifyPluginAsync } from 'fastify';
import { badRequest } from '../../catalog/errors.ts';
import { aspectSpec } from '../../catalog/registry/index.ts';
import { extractTraceId } from '../../catalog/trace/trace-id.ts';
import { summarized, TIMESERIES_TRACE, TRACE_VERSIONS, versionedTraceStatus, type TraceStatus } from '../../catalog/trace/write-trace.ts';
import { parseUrn } from '../../catalog/urn.ts';
import type { AppContext } from '../context.ts';
import { acceptQuery } from '../query-params.ts';
import { recentRefusals } from './write-traces.ts';

const BOOLEAN = ['true', 'false'];
const QUERY = { onlyIncludeErrors: BOOLEAN, detailed: BOOLEAN, skipCache: BOOLEAN };
/** One request traces at most this many aspects: each is a bounded read of its newest versions. */
const MAX_TRACED_ASPECTS = 1000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** DataHub's TraceRequestV1: `{"<urn>": ["<aspect>", ...]}`. */
function traceRequest(body: unknown): [string, string[]][] {
  if (!isObject(body)) throw badRequest('Request body must be {"<urn>": ["<aspect name>", ...]}');
  const entries = Object.entries(body).map(([urn, aspects]): [string, string[]] => {
    if (!Array.isArray(aspects) || !aspects.every((a) => typeof a === 'string')) throw badRequest(`'${urn}' must be a list of aspect names`);
    parseUrn(urn);
    return [urn, aspects as string[]];
  });
  if (entries.reduce((n, [, a]) => n + a.length, 0) > MAX_TRACED_ASPECTS) {
    throw badRequest(`A trace request may name at most ${MAX_TRACED_ASPECTS} aspects; split it`);
  }
  return entries;
}

/**
 * DataHub's TraceController: POST /openapi/v1/trace/write/{traceId} says, per urn and aspect, whether the traced write
 * reached primary storage and the search index (see catalog/trace/write-trace.ts for how Almanac knows).
 */
export const traceRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    app.post<{ Params: { traceId: string }; Querystring: Record<string, string | undefined> }>('/openapi/v1/trace/write/:traceId', async (req) => {
      acceptQuery(req.query, QUERY);
      const onlyIncludeErrors = (req.query.onlyIncludeErrors ?? 'true') === 'true';
      const detailed = req.query.detailed === 'true';
      const traceId = extractTraceId(req.params.traceId);
      if (traceId === undefined) throw badRequest(`'${req.params.traceId}' is neither a traceparent header nor a 32-digit hex trace id`);
      const answer: Record<string, Record<string, TraceStatus>> = {};
      for (const [urn, aspects] of traceRequest(req.body)) {
        const entityType = parseUrn(urn).entityType;
        for (const aspect of aspects) {
          const spec = aspectSpec(entityType, aspect);
          const status =
            spec.kind === 'timeseries'
              ? TIMESERIES_TRACE
              : versionedTraceStatus(
                  traceId,
                  await ctx.catalog.aspectHistory(urn, spec.name, TRACE_VERSIONS),
                  recentRefusals(ctx).reason(traceId, urn, aspect),
                );
          if (onlyIncludeErrors && status.success) continue;
          (answer[urn] ??= {})[aspect] = detailed ? status : summarized(status);
        }
      }
      return answer;
    });
  };
