import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.ts';
import { requireRollbackDeletes } from '../guards.ts';
import { acceptOnly, actionBody, boolParam, intParam, MAX_INT, requireParam, stringParam, unknownAction } from './params.ts';

/** DataHub sets no bound of its own (Elasticsearch's bucket limit stops it); the other lists' 10,000 serves. */
const MAX_RUNS_PAGE = 10_000;

/**
 * Rest.li `runs` resource: list, describe and rollback of ingestion runs (`datahub ingest list-runs`, `show`,
 * `rollback`), with DataHub's parameters, defaults, privileges and response shapes.
 */
export const runsRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const { runs } = ctx;
    app.post<{ Querystring: { action?: string } }>('/runs', async (req) => {
      const body = actionBody(req.body);
      switch (req.query.action) {
        case 'list': {
          const list = await runs.list({
            pageOffset: intParam(body, 'pageOffset', { min: 0, max: MAX_INT }) ?? 0,
            pageSize: intParam(body, 'pageSize', { min: 0, max: MAX_RUNS_PAGE }) ?? 100,
            includeSoft: boolParam(body, 'includeSoft') ?? false,
          });
          return { value: list.map((r) => ({ runId: r.runId, timestamp: r.lastWrittenOn, rows: r.rows })) };
        }
        case 'describe': {
          const query = {
            runId: stringParam(body, 'runId', true),
            start: intParam(body, 'start', { required: true, min: 0, max: MAX_INT })!,
            count: intParam(body, 'count', { required: true, max: MAX_INT })!,
            includeSoft: boolParam(body, 'includeSoft') ?? false,
            includeAspect: boolParam(body, 'includeAspect') ?? false,
          };
          return { value: await runs.describe(query) };
        }
        case 'rollback': {
          acceptOnly(body, req.query, 'rollback', ['runId', 'dryRun', 'hardDelete', 'safe']);
          const runId = stringParam(body, 'runId', true);
          requireParam(body, 'dryRun');
          const dryRun = boolParam(body, 'dryRun')!;
          const safe = boolParam(body, 'safe');
          // `safe` wins over the deprecated `hardDelete`, as in DataHub; neither means a soft rollback.
          const hardDelete = safe !== undefined ? !safe : (boolParam(body, 'hardDelete') ?? false);
          await ctx.authorizer.require(req.principal, 'rollbackRun');
          const plan = await runs.plan(runId, hardDelete);
          await requireRollbackDeletes(ctx, req.principal, [...plan.entities.keys()], plan.created, plan.rows);
          if (dryRun) return { value: runs.dryRun(plan) };
          const value = await runs.rollback(plan);
          req.log.info(
            { runId, hardDelete, entitiesDeleted: value.entitiesDeleted, aspectsReverted: value.aspectsReverted },
            'ingestion run rolled back',
          );
          return { value };
        }
        default:
          throw unknownAction('runs', req.query.action);
      }
    });
  };
