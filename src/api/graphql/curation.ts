import type { Operation } from '../../auth/operations.ts';
import { badRequest } from '../../catalog/errors.ts';
import type { ResourceRef } from '../../catalog/resource-refs.ts';
import type { GraphqlContext } from './schema.ts';

/** A privilege: the operation, on the entity it touches (none for an operation on the platform). */
export type Grant = readonly [operation: Operation, urn?: string];

/**
 * One privilege check: its grant, or any one of the alternatives after it (deleteDomain: deleting that entity, or
 * managing domains; a data product: managing products on any of its domains). A refusal is the first grant's.
 */
export type Check = readonly [operation: Operation, urn?: string, ...alternatives: Grant[]];

/**
 * Every curation mutation (deprecation, tags, terms, owners, descriptions, domains, ...) goes through here: the
 * privilege on each resource first, before any entity is read (the answer for an urn the caller may not edit is
 * the same whether or not it exists), then the request's write budget, then the change, which checks its input
 * and writes in one transaction. Answers what the change answers (a created entity's urn).
 */
export async function guarded<T>(
  ctx: GraphqlContext,
  checks: readonly Check[],
  writes: { n: number; field: string },
  apply: () => Promise<T>,
): Promise<T> {
  const seen = new Set<string>();
  for (const [operation, urn, ...alternatives] of checks) {
    const key = JSON.stringify([operation, urn, alternatives]);
    if (seen.has(key)) continue;
    seen.add(key);
    if (await anyAllowed(ctx, alternatives)) continue;
    await ctx.app.authorizer.require(ctx.principal, operation, urn);
  }
  ctx.writes.take(writes.n, writes.field);
  return apply();
}

/** `guarded` for the mutations that answer DataHub's Boolean: true once the change is written. */
export async function curate(ctx: GraphqlContext, checks: readonly Check[], writes: { n: number; field: string }, apply: () => Promise<unknown>) {
  await guarded(ctx, checks, writes, apply);
  return true as const;
}

async function anyAllowed(ctx: GraphqlContext, grants: readonly Grant[]): Promise<boolean> {
  for (const [operation, urn] of grants) if (await ctx.app.authorizer.allows(ctx.principal, operation, urn)) return true;
  return false;
}

/** DataHub declares some resource lists `[ResourceRefInput]!`, so an element may be null: refused, naming it. */
export function resourceList(resources: ReadonlyArray<ResourceRef | null>): ResourceRef[] {
  return resources.map((r, i) => {
    if (r === null) throw badRequest(`resources[${i}] must not be null`);
    return r;
  });
}

/** The single-resource inputs (urn plus optional field) as the resource reference the batch forms take. */
export const resourceOf = (input: {
  resourceUrn: string;
  subResourceType?: ResourceRef['subResourceType'];
  subResource?: string | null;
}): ResourceRef => ({
  resourceUrn: input.resourceUrn,
  subResourceType: input.subResourceType ?? null,
  subResource: input.subResource ?? null,
});

/** Whether the reference names a field by its path (DataHub picks the field privileges on that alone). */
export const namesField = (r: ResourceRef): boolean => (r.subResource ?? '') !== '';
