import type { FastifyPluginAsync } from 'fastify';
import { notFound } from '../../catalog/errors.ts';
import type { Proposal } from '../../catalog/proposals.ts';
import { parseSnapshot, toSnapshot } from '../../catalog/snapshot.ts';
import type { Json } from '../../storage/store.ts';
import type { AppContext } from '../context.ts';
import { aspectList } from './aspect-list.ts';
import { requireDelete, requireEdit } from '../guards.ts';
import { acceptOnly, actionBody, intParam, requireParam, stringParam, unknownAction } from './params.ts';

/** Rest.li `entities` resource: the snapshot form, exists and delete. */
export const entitiesRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    app.post<{ Querystring: { action?: string } }>('/entities', async (req, reply) => {
      const body = actionBody(req.body);
      switch (req.query.action) {
        case 'ingest': {
          acceptOnly(body, req.query, 'ingest', ['entity', 'systemMetadata']);
          const snapshot = parseSnapshot(requireParam(body, 'entity'));
          await requireEdit(ctx, req.principal, [snapshot.urn]);
          const systemMetadata = (body.systemMetadata as Json | undefined) ?? null;
          const proposals: Proposal[] = snapshot.aspects.map((a) => ({
            entityType: snapshot.entityType,
            urn: snapshot.urn,
            changeType: 'UPSERT',
            aspectName: a.aspect,
            value: a.value,
            systemMetadata,
          }));
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
          await requireDelete(ctx, req.principal, request.urn);
          return { value: await ctx.catalog.delete(request) };
        }
        default:
          throw unknownAction('entities', req.query.action);
      }
    });

    app.get<{ Params: { urn: string }; Querystring: { aspects?: string } }>('/entities/:urn', async (req) => {
      const aspects = await ctx.catalog.getEntity(req.params.urn, aspectList(req.query.aspects));
      if (!aspects) throw notFound(`Entity ${req.params.urn} not found`);
      return { value: toSnapshot(req.params.urn, aspects) };
    });
  };
