import type { FastifyPluginAsync } from 'fastify';
import { notFound } from '../../catalog/errors.ts';
import type { Proposal } from '../../catalog/proposals.ts';
import { parseSnapshot, toSnapshot } from '../../catalog/snapshot.ts';
import type { Json } from '../../storage/store.ts';
import type { AppContext } from '../context.ts';
import { aspectList } from './aspect-list.ts';
import { applyRetentionAction } from './apply-retention.ts';
import { searchAction } from './search-actions.ts';
import { requireDelete, requireIngest } from '../guards.ts';
import { acceptOnly, actionBody, boolParam, intParam, MAX_INT, requireParam, stringParam, unknownAction } from './params.ts';

/** listUrns pages: DataHub leaves count unbounded; Almanac caps it. */
const DEFAULT_LIST_URNS = 100;
const MAX_LIST_URNS = 10_000;

/** Rest.li `entities` resource: the snapshot form, exists, delete, deleteReferences, listUrns and the search actions. */
export const entitiesRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    app.post<{ Querystring: { action?: string } }>('/entities', async (req, reply) => {
      const body = actionBody(req.body);
      switch (req.query.action) {
        case 'ingest': {
          acceptOnly(body, req.query, 'ingest', ['entity', 'systemMetadata']);
          const snapshot = parseSnapshot(requireParam(body, 'entity'));
          req.writes.take(snapshot.aspects.length, 'entity.aspects');
          const systemMetadata = (body.systemMetadata as Json | undefined) ?? null;
          const proposals: Proposal[] = snapshot.aspects.map((a) => ({
            entityType: snapshot.entityType,
            urn: snapshot.urn,
            changeType: 'UPSERT',
            aspectName: a.aspect,
            value: a.value,
            systemMetadata,
          }));
          await requireIngest(ctx, req.principal, proposals);
          await ctx.catalog.ingest(proposals, req.principal.actorUrn, (i) => `entity.aspects[${i}]`);
          return reply.code(200).send({});
        }
        case 'exists':
          return { value: await ctx.catalog.exists(stringParam(body, 'urn', true)) };
        case 'delete': {
          acceptOnly(body, req.query, 'delete', ['urn', 'aspectName', 'startTimeMillis', 'endTimeMillis']);
          const request = {
            urn: stringParam(body, 'urn', true),
            aspectName: stringParam(body, 'aspectName'),
            startTimeMillis: intParam(body, 'startTimeMillis'),
            endTimeMillis: intParam(body, 'endTimeMillis'),
          };
          await requireDelete(ctx, req.principal, request.urn, request.aspectName);
          return { value: await ctx.catalog.delete(request) };
        }
        case 'listUrns': {
          acceptOnly(body, req.query, 'listUrns', ['entity', 'start', 'count']);
          const entity = stringParam(body, 'entity', true);
          const start = intParam(body, 'start', { required: true, min: 0, max: MAX_INT })!;
          const count = intParam(body, 'count', { min: 0, max: MAX_LIST_URNS }) ?? DEFAULT_LIST_URNS;
          const page = await ctx.catalog.listUrns(entity, start, count);
          return { value: { entities: page.urns, start, count: page.urns.length, total: page.total } };
        }
        case 'deleteReferences': {
          acceptOnly(body, req.query, 'deleteReferences', ['urn', 'dryRun']);
          const urn = stringParam(body, 'urn', true);
          const dryRun = boolParam(body, 'dryRun') ?? false;
          await requireDelete(ctx, req.principal, urn);
          const result = await ctx.catalog.deleteReferences(urn, dryRun);
          return { value: { total: result.total, relatedAspects: result.relatedAspects } };
        }
        case 'applyRetention':
          return applyRetentionAction(ctx, body, req.query, req.principal);
        default: {
          const answer = await searchAction(ctx, req.query.action, body, req.query);
          if (answer === undefined) throw unknownAction('entities', req.query.action);
          return answer;
        }
      }
    });

    app.get<{ Params: { urn: string }; Querystring: { aspects?: string } }>('/entities/:urn', async (req) => {
      const aspects = await ctx.catalog.getEntity(req.params.urn, aspectList(req.query.aspects));
      if (!aspects) throw notFound(`Entity ${req.params.urn} not found`);
      return { value: toSnapshot(req.params.urn, aspects) };
    });
  };
