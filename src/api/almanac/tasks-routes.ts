import type { FastifyPluginAsync } from 'fastify';
import type { Principal } from '../../auth/principal.ts';
import { badRequest, notFound } from '../../catalog/errors.ts';
import type { TaskRef, TaskState } from '../../storage/store.ts';
import { parseTaskId } from '../../catalog/task-id.ts';
import type { AppContext } from '../context.ts';
import { acceptQuery } from '../query-params.ts';
import { intParam } from '../restli/params.ts';
import { taskView } from './task-views.ts';

const MAX_WAIT_MILLIS = 60_000;
const STATES: readonly TaskState[] = ['running', 'completed', 'failed', 'timed_out', 'cancelled'];

function taskRef(id: string): TaskRef {
  const ref = parseTaskId(id);
  if (!ref) throw badRequest(`Task id must look like nodeId:number, e.g. aB1cdEf2GHIJKLMnoPQr3S:12 (got ${id})`);
  return ref;
}

/** Plain JSON task routes for people and scripts: one task, recent tasks, and cancel. */
export const tasksRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const ops = ctx.operations;
    const canRead = (principal: Principal) => ctx.authorizer.require(principal, 'getTaskStatus');

    app.get<{ Querystring: { limit?: string; state?: string } }>('/api/tasks', async (req) => {
      await canRead(req.principal);
      const limit = intParam({ limit: req.query.limit ?? '20' }, 'limit', { min: 1 })!;
      if (limit > 1000) throw badRequest(`Parameter 'limit' must be at most 1000, got ${limit}`);
      const state = req.query.state;
      if (state !== undefined && !STATES.includes(state as TaskState)) {
        throw badRequest(`Parameter 'state' must be one of ${STATES.join(', ')}, got ${state}`);
      }
      const tasks = await ops.listTasks({ limit, state: state as TaskState | undefined });
      const now = Date.now();
      return { tasks: tasks.map((t) => taskView(t, now)) };
    });

    app.get<{ Params: { id: string }; Querystring: { waitMillis?: string } }>('/api/tasks/:id', async (req) => {
      await canRead(req.principal);
      const ref = taskRef(req.params.id);
      // Long poll: with waitMillis, answers as soon as the task stops running (at most a minute).
      const wait = intParam({ waitMillis: req.query.waitMillis ?? '0' }, 'waitMillis', { min: 0 })!;
      if (wait > MAX_WAIT_MILLIS) throw badRequest(`Parameter 'waitMillis' must be at most ${MAX_WAIT_MILLIS}, got ${wait}`);
      const task = wait > 0 ? await ops.waitForTask(ref, wait) : await ops.getTask(ref);
      if (!task) throw notFound(`Task ${req.params.id} not found`);
      return taskView(task, Date.now());
    });

    app.post<{ Params: { id: string } }>('/api/tasks/:id/cancel', async (req) => {
      acceptQuery(req.query, {});
      if (req.body !== undefined && req.body !== null && (typeof req.body !== 'object' || Object.keys(req.body).length > 0)) {
        throw badRequest('Cancel takes no body; the task is named in the path');
      }
      await ctx.authorizer.require(req.principal, 'truncateTimeseries');
      return taskView(await ops.cancel(taskRef(req.params.id)), Date.now());
    });
  };
