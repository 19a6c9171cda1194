import { deprecationView } from '../../catalog/deprecation.ts';
import type { Json } from '../../storage/store.ts';
import { aspectOf, entityRef, keyPart, type EntitySource } from './entity-refs.ts';
import { typeOfEntity } from './entity-types.ts';
import type { GraphqlContext, Resolver } from './schema.ts';

/** Shared resolvers of the entity types: each reads only the aspect its field needs. */

export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
export const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

/** `type`: the EntityType value of the source's registry entity. */
export const entityTypeField: Resolver = (e: EntitySource) => typeOfEntity(e.entity);

/** A field that is one part of the urn's key. */
export const keyField =
  (field: string): Resolver =>
  (e: EntitySource) =>
    keyPart(e, field);

/** A field computed from one aspect's latest value; null when the entity has none. */
export const fromAspect =
  (aspect: string, map: (value: Json, e: EntitySource) => unknown = (v) => v): Resolver =>
  async (e: EntitySource, _a, ctx) => {
    const value = await aspectOf(ctx, e.urn, aspect);
    return value === undefined ? null : map(value, e);
  };

/** `exists`: whether the entity is stored. */
export const existsField: Resolver = async (e: EntitySource, _a, ctx) => (await ctx.entities.load(e.urn, [])) !== undefined;

/** `status`: DataHub's Status, null when the entity has none. */
export const statusField = fromAspect('status', (v) => ({ removed: v.removed === true }));

/** `deprecation`: never null, as Dataset.deprecation (Almanac's rule). */
export const deprecationField: Resolver = async (e: EntitySource, _a, ctx) => deprecationView(await aspectOf(ctx, e.urn, 'deprecation'));

/** `subTypes`: the subTypes aspect. */
export const subTypesField = fromAspect('subTypes', (v) => ({ typeNames: Array.isArray(v.typeNames) ? v.typeNames : [] }));

/** A field holding another entity, from a urn. */
export const refField =
  (urnOf: (e: EntitySource, ctx: GraphqlContext) => string | null | Promise<string | null>): Resolver =>
  async (e: EntitySource, _a, ctx) =>
    entityRef(ctx, await urnOf(e, ctx));

/** A field holding the entity named by a urn-valued field of one aspect. */
export const refFromAspect = (aspect: string, urnOf: (value: Json) => unknown): Resolver =>
  refField(async (e, ctx) => {
    const value = await aspectOf(ctx, e.urn, aspect);
    return value === undefined ? null : str(urnOf(value));
  });

/** `platform` of an entity whose key names a data platform: a full urn or a bare name (tools, orchestrators). */
export const platformFromKey = (field: string): Resolver =>
  refField((e) => {
    const part = keyPart(e, field);
    if (part === null) return null;
    return part.startsWith('urn:li:dataPlatform:') ? part : `urn:li:dataPlatform:${part}`;
  });

/** DataHub's AuditStamp: `{time, actor}`, or null when the value holds no time. */
export function auditStamp(v: unknown): { time: number; actor: string | null } | null {
  const stamp = v as Json | undefined;
  return typeof stamp?.time === 'number' ? { time: stamp.time, actor: str(stamp.actor) } : null;
}

/** The name, description and external url most *Properties types share. */
export const named = (name: unknown, fallback: string | null, v: Json) => ({
  name: str(name) ?? fallback ?? '',
  description: str(v.description),
  externalUrl: str(v.externalUrl),
});

/** Fields every entity type below has. */
export const COMMON = { type: entityTypeField };

/** How far parent chains climb: a cycle stops here too. */
export const MAX_HIERARCHY_DEPTH = 50;

/** A chain of parents read one aspect field at a time, nearest first, stopping at a cycle. */
export async function parentChain(ctx: GraphqlContext, urn: string, aspect: string, field: string): Promise<string[]> {
  const chain: string[] = [];
  let next = str((await aspectOf(ctx, urn, aspect))?.[field]);
  while (next && next !== urn && !chain.includes(next) && chain.length < MAX_HIERARCHY_DEPTH) {
    chain.push(next);
    next = str((await aspectOf(ctx, next, aspect))?.[field]);
  }
  return chain;
}
