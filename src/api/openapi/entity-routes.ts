import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, notFound } from '../../catalog/errors.ts';
import { parseHeaders, type Proposal } from '../../catalog/proposals.ts';
import { aspectSpec, entitySpec } from '../../catalog/registry/index.ts';
import { parseUrn } from '../../catalog/urn.ts';
import type { Json, StoredAspect } from '../../storage/store.ts';
import type { AppContext } from '../context.ts';
import { acceptQuery, type QuerySpec } from '../query-params.ts';
import { requireAuthorityWrites, requireDelete, requireEdit, requireIngest } from '../guards.ts';
import { openapiDocument } from './document.ts';
import { tracedWrite } from './write-traces.ts';

/**
 * Writes are synchronous either way; `createIfNotExists=true` (create-only) is not supported, so it is refused. The
 * answer always carries system metadata (with the write's trace id), so `systemMetadata` is accepted either way.
 */
const WRITE_QUERY: QuerySpec = { async: ['true', 'false'], createIfNotExists: ['false'], systemMetadata: ['true', 'false'] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One `{"value": {...}, "systemMetadata": {...}}` aspect of the v3 entity form, as a proposal. */
function toProposal(
  entityType: string,
  urn: string,
  aspectName: string,
  body: unknown,
  path: string,
  changeType: 'UPSERT' | 'PATCH' = 'UPSERT',
): Proposal {
  if (!isObject(body) || !('value' in body)) throw badRequest(`'${path}' must be {"value": {...}, "systemMetadata": {...}}`);
  const sm = body.systemMetadata;
  if (sm !== undefined && sm !== null && !isObject(sm)) throw badRequest(`'${path}.systemMetadata' must be an object`);
  if (changeType === 'PATCH' && !(isObject(body.value) && 'patch' in body.value))
    throw badRequest(`'${path}.value' must be {"patch": [...]}: Missing \`patch\` field.`);
  const headers = parseHeaders(body.headers, `${path}.headers`);
  return {
    entityType,
    urn,
    changeType,
    aspectName,
    value: body.value,
    systemMetadata: (sm as Json | undefined) ?? null,
    ...(headers ? { headers } : {}),
  };
}

const entityView = (urn: string, aspects: readonly StoredAspect[]) => ({
  urn,
  ...Object.fromEntries(aspects.map((a) => [a.aspect, { value: a.value, systemMetadata: a.systemMetadata }])),
});

/**
 * The timeseries events a write sent, by urn, as the answer shows them: an entity's stored aspects leave events out,
 * and DataHub answers each written aspect (with its trace id, which DataHub's trace smoke test reads from an event).
 */
function timeseriesWritten(traced: readonly Proposal[]): Map<string, Record<string, { value: unknown; systemMetadata: Json | null }>> {
  const out = new Map<string, Record<string, { value: unknown; systemMetadata: Json | null }>>();
  for (const p of traced) {
    if (aspectSpec(p.entityType, p.aspectName).kind !== 'timeseries') continue;
    out.set(p.urn, { ...out.get(p.urn), [p.aspectName]: { value: p.value, systemMetadata: p.systemMetadata } });
  }
  return out;
}

/** DataHub's OpenAPI v3 entity endpoints, as newer emitters use them. */
export const openapiRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    app.get('/openapi/v3/api-docs', { config: { public: true } }, async () => openapiDocument());

    /** POST writes whole aspects, PATCH applies JSON Patches; both answer the entities as they now are. */
    const writeEntities =
      (changeType: 'UPSERT' | 'PATCH') => async (req: FastifyRequest<{ Params: { entityType: string } }>, reply: FastifyReply) => {
        acceptQuery(req.query, WRITE_QUERY);
        const spec = entitySpec(req.params.entityType);
        if (!Array.isArray(req.body)) throw badRequest('Request body must be an array of {"urn": ..., "<aspect>": {"value": ...}}');
        const proposals: Proposal[] = [];
        const urns: string[] = [];
        req.body.forEach((item: unknown, i: number) => {
          if (!isObject(item) || typeof item.urn !== 'string') throw badRequest(`'[${i}].urn' is required and must be a string`);
          urns.push(item.urn);
          for (const [aspect, body] of Object.entries(item)) {
            if (aspect !== 'urn') proposals.push(toProposal(spec.name, item.urn, aspect, body, `[${i}].${aspect}`, changeType));
          }
        });
        req.writes.take(proposals.length, 'body');
        await requireEdit(ctx, req.principal, urns);
        await requireAuthorityWrites(ctx, req.principal, proposals);
        const traced = await tracedWrite(ctx, reply, proposals, async (t) => {
          await ctx.catalog.ingest(t, req.principal.actorUrn);
          return t;
        });
        const events = timeseriesWritten(traced);
        return Promise.all(
          [...new Set(urns)].map(async (urn) => ({ ...entityView(urn, (await ctx.catalog.getEntity(urn)) ?? []), ...events.get(urn) })),
        );
      };
    app.post('/openapi/v3/entity/:entityType', writeEntities('UPSERT'));
    app.patch('/openapi/v3/entity/:entityType', writeEntities('PATCH'));

    app.get<{ Params: { entityType: string; urn: string } }>('/openapi/v3/entity/:entityType/:urn', async (req) => {
      entitySpec(req.params.entityType);
      const aspects = await ctx.catalog.getEntity(req.params.urn);
      if (!aspects) throw notFound(`Entity ${req.params.urn} not found`);
      return entityView(req.params.urn, aspects);
    });

    app.delete<{ Params: { entityType: string; urn: string } }>('/openapi/v3/entity/:entityType/:urn', async (req, reply) => {
      acceptQuery(req.query, {});
      const spec = entitySpec(req.params.entityType);
      const urn = parseUrn(req.params.urn);
      if (urn.entityType.toLowerCase() !== spec.name.toLowerCase()) {
        throw badRequest(`Urn ${req.params.urn} is not a ${spec.name} urn; nothing was deleted`);
      }
      await requireDelete(ctx, req.principal, req.params.urn);
      if (!(await ctx.catalog.exists(req.params.urn))) throw notFound(`Entity ${req.params.urn} not found`);
      await ctx.catalog.delete({ urn: req.params.urn });
      return reply.code(200).send();
    });

    app.post<{ Params: { entityType: string; urn: string; aspect: string } }>('/openapi/v3/entity/:entityType/:urn/:aspect', async (req, reply) => {
      acceptQuery(req.query, WRITE_QUERY);
      const spec = entitySpec(req.params.entityType);
      const proposal = toProposal(spec.name, req.params.urn, req.params.aspect, req.body, 'body');
      req.writes.take(1, 'body');
      await requireIngest(ctx, req.principal, [proposal]);
      const existed = await ctx.catalog.exists(req.params.urn);
      const [traced] = await tracedWrite(ctx, reply, [proposal], async (t) => {
        await ctx.catalog.ingest(t, req.principal.actorUrn);
        return t;
      });
      return reply
        .code(existed ? 200 : 201)
        .send({ urn: req.params.urn, [req.params.aspect]: { value: traced!.value, systemMetadata: traced!.systemMetadata } });
    });
  };
