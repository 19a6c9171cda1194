import type { FastifyPluginAsync } from 'fastify';
import { badRequest } from '../../catalog/errors.ts';
import { parseTaskId } from '../../catalog/task-id.ts';
import { DEFAULT_BATCH_SIZE } from '../../tasks/truncation/timeseries-operations.ts';
import type { AppContext } from '../context.ts';
import { applyRetentionAction } from './apply-retention.ts';
import { esTaskStatus, indexSizeView } from '../almanac/task-views.ts';
import { acceptOnly, actionBody, boolParam, intParam, MAX_INT, stringParam, unknownAction, type ActionBody } from './params.ts';

/** A positive rate; Rest.li clients may send numbers as strings. */
/**
 * The truncation throttle, rows per second. Bounded below so that the wait it
 * implies stays a wait: a rate such as 1e-9 asks for a pause longer than any
 * timer holds (Node fires such a timer at once, which turned the throttle off).
 */
const MIN_REQUESTS_PER_SECOND = 0.01;
const MAX_REQUESTS_PER_SECOND = 1_000_000;

function rateParam(body: ActionBody, name: string): number | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < MIN_REQUESTS_PER_SECOND || n > MAX_REQUESTS_PER_SECOND) {
    throw badRequest(`Parameter '${name}' must be a number from ${MIN_REQUESTS_PER_SECOND} to ${MAX_REQUESTS_PER_SECOND}, got ${JSON.stringify(v)}`);
  }
  return n;
}

const TRUNCATE_PARAMS = [
  'entityType',
  'aspect',
  'endTimeMillis',
  'dryRun',
  'batchSize',
  'timeoutSeconds',
  'forceDeleteByQuery',
  'forceReindex',
  'requestsPerSecond',
  'force',
] as const;

/**
 * Rest.li `operations` resource: truncateTimeseriesAspect, getIndexSizes and
 * getEsTaskStatus, with DataHub's privileges, messages and response shapes.
 */
export const operationsRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const ops = ctx.operations;
    app.post<{ Querystring: { action?: string } }>('/operations', async (req) => {
      const body = actionBody(req.body);
      switch (req.query.action) {
        case 'truncateTimeseriesAspect': {
          acceptOnly(body, req.query, 'truncateTimeseriesAspect', TRUNCATE_PARAMS);
          const request = {
            entityType: stringParam(body, 'entityType', true),
            aspect: stringParam(body, 'aspect', true),
            endTimeMillis: intParam(body, 'endTimeMillis', { required: true })!,
            dryRun: boolParam(body, 'dryRun') ?? true,
            batchSize: intParam(body, 'batchSize', { min: 1, max: MAX_INT }) ?? DEFAULT_BATCH_SIZE,
            timeoutSeconds: intParam(body, 'timeoutSeconds', { min: 1, max: MAX_INT }),
            forceDeleteByQuery: boolParam(body, 'forceDeleteByQuery'),
            forceReindex: boolParam(body, 'forceReindex'),
            requestsPerSecond: rateParam(body, 'requestsPerSecond'),
            force: boolParam(body, 'force'),
          };
          await ctx.authorizer.require(req.principal, 'truncateTimeseries');
          return { value: await ops.truncate(request, req.principal.actorUrn) };
        }
        case 'getIndexSizes': {
          await ctx.authorizer.require(req.principal, 'getIndexSizes');
          const sizes = await ops.indexSizes();
          return {
            value: {
              indexSizes: sizes.map(indexSizeView),
            },
          };
        }
        case 'getEsTaskStatus': {
          const nodeId = stringParam(body, 'nodeId');
          const taskId = intParam(body, 'taskId') ?? 0;
          const task = stringParam(body, 'task');
          await ctx.authorizer.require(req.principal, 'getTaskStatus');
          const byParts = nodeId !== undefined && taskId > 0;
          if (task === undefined && !byParts) throw badRequest('Please specify either Node ID + task ID OR composite task parameters');
          if (task !== undefined && byParts && task !== `${nodeId}:${taskId}`) {
            throw badRequest('Please specify only one of Node ID + task ID OR composite task parameters');
          }
          const parsed = task === undefined ? undefined : parseTaskId(task);
          if (task !== undefined && !parsed) {
            throw badRequest(`Task should be in the form nodeId:taskId e.g. aB1cdEf2GHIJKLMnoPQr3S:123456 (got ${task})`);
          }
          const ref = byParts ? { nodeId: nodeId!, number: taskId } : parsed!;
          const record = await ops.getTask(ref);
          const status = record ? esTaskStatus(record, Date.now()) : { error: `Could not get task status for ${ref.nodeId}:${ref.number}` };
          return { value: JSON.stringify(status) };
        }
        case 'applyRetention':
          return applyRetentionAction(ctx, body, req.query, req.principal);
        default:
          throw unknownAction('operations', req.query.action);
      }
    });
  };
