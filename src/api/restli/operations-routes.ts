import type { FastifyPluginAsync } from 'fastify';
import { badRequest } from '../../catalog/errors.ts';
import { parseTaskId } from '../../tasks/task-id.ts';
import { DEFAULT_BATCH_SIZE } from '../../tasks/timeseries-operations.ts';
import type { AppContext } from '../context.ts';
import { esTaskStatus } from '../task-views.ts';
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
          };
          await ctx.authorizer.require(req.principal, ['TRUNCATE_TIMESERIES_INDEX_PRIVILEGE'], 'User is unauthorized to truncate timeseries index');
          return { value: await ops.truncate(request, req.principal.actorUrn) };
        }
        case 'getIndexSizes': {
          await ctx.authorizer.require(
            req.principal,
            ['GET_TIMESERIES_INDEX_SIZES_PRIVILEGE', 'MANAGE_SYSTEM_OPERATIONS'],
            'User is unauthorized to get index sizes.',
          );
          const sizes = await ops.indexSizes();
          return {
            value: {
              indexSizes: sizes.map((s) => ({
                indexName: s.indexName,
                entityName: s.entityType.toLowerCase(),
                aspectName: s.aspect.toLowerCase(),
                // Older DataHub filled sizeMb with bytes / 1000, newer fills sizeInMb with bytes / 1000000: both are given.
                sizeMb: s.sizeBytes / 1000,
                sizeInMb: s.sizeBytes / 1_000_000,
                sizeBytes: s.sizeBytes,
                rowCount: s.rowCount,
                ...(s.oldestTimestampMillis !== null ? { oldestTimestampMillis: s.oldestTimestampMillis } : {}),
                ...(s.newestTimestampMillis !== null ? { newestTimestampMillis: s.newestTimestampMillis } : {}),
              })),
            },
          };
        }
        case 'getEsTaskStatus': {
          const nodeId = stringParam(body, 'nodeId');
          const taskId = intParam(body, 'taskId') ?? 0;
          const task = stringParam(body, 'task');
          await ctx.authorizer.require(
            req.principal,
            ['GET_ES_TASK_STATUS_PRIVILEGE', 'MANAGE_SYSTEM_OPERATIONS'],
            'User is unauthorized to get ES task status',
          );
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
        default:
          throw unknownAction('operations', req.query.action);
      }
    });
  };
