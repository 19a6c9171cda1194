import type { FastifyPluginAsync } from 'fastify';
import type { EntityView } from '../../catalog/catalog.ts';
import type { AppContext } from '../context.ts';
import { aspectList } from './aspect-list.ts';

/** DataHub's EntityResponse: every aspect enveloped with its name, type, version 0, created stamp and system metadata. */
const entityResponse = (view: EntityView) => ({
  entityName: view.entityType,
  urn: view.urn,
  aspects: Object.fromEntries(
    view.aspects.map((a) => [
      a.aspect,
      {
        name: a.aspect,
        type: 'VERSIONED',
        version: 0,
        value: a.value,
        created: { time: a.createdOn, actor: a.createdBy },
        ...(a.systemMetadata ? { systemMetadata: a.systemMetadata } : {}),
      },
    ]),
  ),
});

/**
 * The raw `ids=List(a,b)` of a batch get, split before decoding: urns contain
 * commas, so clients percent-encode each urn and only the separators stay raw.
 */
function idsFromRawQuery(rawUrl: string): string[] | undefined {
  const query = rawUrl.split('?')[1] ?? '';
  const raw = query
    .split('&')
    .find((p) => p.startsWith('ids='))
    ?.slice(4);
  if (raw === undefined) return undefined;
  const inner = raw.startsWith('List(') && raw.endsWith(')') ? raw.slice(5, -1) : raw;
  return inner
    .split(',')
    .filter(Boolean)
    .map((id) => decodeURIComponent(id));
}

/** Rest.li `entitiesV2`: what DataHubGraph's get_entity_raw, get_aspects_for_entity and get_entity_semityped read. */
export const entitiesV2Routes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    app.get<{ Params: { urn: string }; Querystring: { aspects?: string } }>('/entitiesV2/:urn', async (req) =>
      entityResponse(await ctx.catalog.entityView(req.params.urn, aspectList(req.query.aspects))),
    );

    app.get<{ Querystring: { aspects?: string } }>('/entitiesV2', async (req) => {
      const ids = idsFromRawQuery(req.raw.url ?? '') ?? [];
      const results: Record<string, unknown> = {};
      for (const urn of ids) results[urn] = entityResponse(await ctx.catalog.entityView(urn, aspectList(req.query.aspects)));
      return { results, statuses: {}, errors: {} };
    });
  };
