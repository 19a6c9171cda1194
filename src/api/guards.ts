import { authoritiesOfType, authorityOf } from '../auth/authority-aspects.ts';
import { ADMIN_URN, type Principal } from '../auth/principal.ts';
import { POLICY_URN_PREFIX } from '../auth/policy.ts';
import { isIdentityUrn } from '../catalog/deletion.ts';
import { forbidden } from '../catalog/errors.ts';
import { parseUrn } from '../catalog/urn.ts';
import type { AppContext } from './context.ts';

/**
 * By prefix, not by parsing: a malformed urn is reported by the write's own validation, naming the item. Ingestion
 * matches entity types case-insensitively, so this does too.
 */
const isPolicyUrn = (urn: string): boolean => urn.toLowerCase().startsWith(POLICY_URN_PREFIX.toLowerCase());

/**
 * Ingestion needs EDIT_ENTITY on each entity written; a policy's aspects need
 * MANAGE_POLICIES, since writing a policy grants privileges.
 */
export async function requireEdit(ctx: AppContext, principal: Principal, urns: readonly string[]): Promise<void> {
  for (const urn of new Set(urns)) await ctx.authorizer.require(principal, isPolicyUrn(urn) ? 'writePolicyEntity' : 'writeEntity', urn);
}

/**
 * Deleting an entity needs EDIT_ENTITY on it; deleting (any part of) a user or group
 * needs MANAGE_USERS_AND_GROUPS, a policy MANAGE_POLICIES, and the built-in
 * administrator is never deleted, so no Editor can lock the admins out.
 */
export async function requireDelete(ctx: AppContext, principal: Principal, urn: string, aspectName?: string): Promise<void> {
  if (isPolicyUrn(urn)) return ctx.authorizer.require(principal, 'deletePolicyEntity', urn);
  if (!isIdentityUrn(urn)) {
    await ctx.authorizer.require(principal, 'deleteEntity', urn);
    // Deleting a secret, a token record or a setting is writing it: the authority table's privilege too.
    const entityType = parseUrn(urn).entityType;
    const operations = aspectName === undefined ? authoritiesOfType(entityType) : [authorityOf(entityType, aspectName)];
    for (const operation of operations) if (operation !== undefined) await ctx.authorizer.require(principal, operation, urn);
    return;
  }
  await ctx.authorizer.require(principal, 'deleteIdentity', urn);
  if (urn === ADMIN_URN) throw forbidden(`${ADMIN_URN} is the built-in administrator and cannot be deleted`);
}

/** What a write touches: the entity and the aspect. */
export interface AspectWrite {
  readonly urn: string;
  readonly aspectName: string;
}

/** The aspects that decide whether a user may act at all: the built-in administrator's are never written. */
const ACCESS_ASPECTS = new Set(['corpUserStatus', 'status']);

/**
 * Writing an aspect that carries authority (a user's groups, roles or suspension, a policy, a secret: the table in
 * auth/authority-aspects.ts) needs that aspect's privilege, whatever the route; and the built-in administrator is
 * never suspended or soft-deleted, so nobody locks every admin out by ingestion.
 */
export async function requireAuthorityWrites(ctx: AppContext, principal: Principal, writes: readonly AspectWrite[]): Promise<void> {
  const checked = new Set<string>();
  for (const w of writes) {
    const entityType = parseUrn(w.urn).entityType;
    const operation = authorityOf(entityType, w.aspectName);
    if (operation === undefined || checked.has(operation)) continue;
    checked.add(operation);
    await ctx.authorizer.require(principal, operation, w.urn);
  }
  if (writes.some((w) => w.urn === ADMIN_URN && ACCESS_ASPECTS.has(w.aspectName))) {
    throw forbidden(`${ADMIN_URN} is the built-in administrator and cannot be suspended or soft-deleted`);
  }
}

/** Every ingestion path's check, in one call: EDIT_ENTITY (or MANAGE_POLICIES) on each entity, then the authority table. */
export async function requireIngest(ctx: AppContext, principal: Principal, writes: readonly AspectWrite[]): Promise<void> {
  await requireEdit(
    ctx,
    principal,
    writes.map((w) => w.urn),
  );
  await requireAuthorityWrites(ctx, principal, writes);
  await ctx.auditTrail.recordGroupWrites(principal.actorUrn, writes);
}

/**
 * What a rollback deletes follows the delete rules: EDIT_ENTITY on each entity, MANAGE_USERS_AND_GROUPS when
 * the run wrote to a user or group, and never the built-in administrator.
 */
export async function requireRollbackDeletes(
  ctx: AppContext,
  principal: Principal,
  urns: readonly string[],
  created: readonly string[],
  reverted: readonly AspectWrite[],
): Promise<void> {
  await ctx.authorizer.requireEach(principal, 'rollbackDeletes', urns);
  if (urns.some(isIdentityUrn)) await ctx.authorizer.require(principal, 'rollbackIdentityDeletes');
  if (created.includes(ADMIN_URN)) throw forbidden(`${ADMIN_URN} is the built-in administrator and cannot be deleted`);
  // Reverting an aspect writes its earlier value (or removes it): the authority table applies as to any write.
  await requireAuthorityWrites(ctx, principal, reverted);
}
