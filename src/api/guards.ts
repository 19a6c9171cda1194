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
export async function requireDelete(ctx: AppContext, principal: Principal, urn: string): Promise<void> {
  if (isPolicyUrn(urn)) return ctx.authorizer.require(principal, 'deletePolicyEntity', urn);
  if (!isIdentityUrn(urn)) return ctx.authorizer.require(principal, 'deleteEntity', urn);
  await ctx.authorizer.require(principal, 'deleteIdentity', urn);
  if (urn === ADMIN_URN) throw forbidden(`${ADMIN_URN} is the built-in administrator and cannot be deleted`);
}

/** The aspects that decide whether a user may act at all: suspension (corpUserStatus) and soft deletion (status). */
const ACCESS_ASPECTS = new Set(['corpUserStatus', 'status']);

/**
 * Writing a user's suspension or soft deletion is managing users: it needs
 * MANAGE_USERS_AND_GROUPS, and the built-in administrator's are never written,
 * so no Editor can lock a user, or every admin, out by ingestion.
 */
export async function requireAccessAspectWrites(
  ctx: AppContext,
  principal: Principal,
  writes: ReadonlyArray<{ urn: string; aspectName: string }>,
): Promise<void> {
  const touched = writes.filter((w) => ACCESS_ASPECTS.has(w.aspectName) && parseUrn(w.urn).entityType === 'corpuser');
  if (touched.length === 0) return;
  await ctx.authorizer.require(principal, 'writeIdentityAccess', touched[0]!.urn);
  if (touched.some((w) => w.urn === ADMIN_URN)) throw forbidden(`${ADMIN_URN} is the built-in administrator and cannot be suspended or soft-deleted`);
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
): Promise<void> {
  await ctx.authorizer.requireEach(principal, 'rollbackDeletes', urns);
  if (urns.some(isIdentityUrn)) await ctx.authorizer.require(principal, 'rollbackIdentityDeletes');
  if (created.includes(ADMIN_URN)) throw forbidden(`${ADMIN_URN} is the built-in administrator and cannot be deleted`);
}
