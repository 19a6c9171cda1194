import type { FastifyPluginAsync } from 'fastify';
import { badRequest, notFound } from '../../catalog/errors.ts';
import { parseTaskId } from '../../catalog/task-id.ts';
import type { AppContext } from '../context.ts';
import { acceptQuery } from '../query-params.ts';
import { intParam } from '../restli/params.ts';
import { policyView, previewView, runView } from './retention-views.ts';

const MAX_WAIT_MILLIS = 60_000;
const RUN_FIELDS = ['entity', 'aspect', 'confirm'];

function objectBody(body: unknown, what: string): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest(`${what}: the body must be a JSON object`);
  return body as Record<string, unknown>;
}

/** Almanac's retention API: policies (DataHub's shape), what they would delete now, runs and their history. */
export const retentionRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const service = ctx.retention;

    app.get('/api/retention', async (req) => {
      acceptQuery(req.query, {});
      await ctx.authorizer.require(req.principal, 'viewRetention');
      return { policies: (await service.list()).map(policyView) };
    });

    app.post('/api/retention', async (req) => {
      acceptQuery(req.query, {});
      await ctx.authorizer.require(req.principal, 'manageRetention');
      return policyView(await service.set(req.body, req.principal.actorUrn));
    });

    app.delete<{ Params: { entity: string; aspect: string } }>('/api/retention/:entity/:aspect', async (req) => {
      acceptQuery(req.query, {});
      await ctx.authorizer.require(req.principal, 'manageRetention');
      await service.remove(req.params.entity, req.params.aspect, req.principal.actorUrn);
      return { deleted: { entity: req.params.entity, aspect: req.params.aspect } };
    });

    app.get('/api/retention/preview', async (req) => {
      acceptQuery(req.query, {});
      await ctx.authorizer.require(req.principal, 'viewRetention');
      return { maxDeletePercent: ctx.config.retention.maxDeletePercent, preview: (await service.preview()).map(previewView) };
    });

    app.post('/api/retention/run', async (req, reply) => {
      acceptQuery(req.query, {});
      const body = objectBody(req.body, 'Retention run');
      const unknown = Object.keys(body).find((k) => !RUN_FIELDS.includes(k));
      if (unknown) throw badRequest(`Field '${unknown}': a retention run takes ${RUN_FIELDS.join(', ')}`);
      const { entity, aspect, confirm } = body;
      if (confirm !== undefined && typeof confirm !== 'boolean') throw badRequest(`Field 'confirm': must be true or false`);
      await ctx.authorizer.require(req.principal, 'manageRetention');
      const policy = await service.runScope(entity, aspect);
      const run = await service.run({ trigger: 'manual', policy, confirm: confirm === true }, req.principal.actorUrn);
      return reply.code(202).send(runView(run));
    });

    app.get<{ Querystring: { limit?: string } }>('/api/retention/runs', async (req) => {
      await ctx.authorizer.require(req.principal, 'viewRetention');
      const limit = intParam({ limit: req.query.limit ?? '20' }, 'limit', { min: 1, max: 1000 })!;
      return { runs: (await service.runs(limit)).map(runView) };
    });

    app.get<{ Params: { id: string }; Querystring: { waitMillis?: string } }>('/api/retention/runs/:id', async (req) => {
      await ctx.authorizer.require(req.principal, 'viewRetention');
      const ref = parseTaskId(req.params.id);
      if (!ref) throw badRequest(`Run id must look like nodeId:number (got ${req.params.id})`);
      const wait = intParam({ waitMillis: req.query.waitMillis ?? '0' }, 'waitMillis', { min: 0, max: MAX_WAIT_MILLIS })!;
      const run = await service.waitForRun(ref, wait);
      if (!run) throw notFound(`Retention run ${req.params.id} not found`);
      return runView(run);
    });
  };
