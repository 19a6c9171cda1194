import { UNAUTHORIZED_MESSAGE } from '../auth/authorizer.ts';
import { ADMIN_URN, type Principal } from '../auth/principal.ts';
import { isIdentityUrn } from '../catalog/deletion.ts';
import { forbidden } from '../catalog/errors.ts';
import { parseUrn } from '../catalog/urn.ts';
import type { AppContext } from './context.ts';

/** Ingestion needs EDIT_ENTITY; the message is DataHub's. */
export const requireEdit = (ctx: AppContext, principal: Principal, urns: readonly string[]): Promise<void> =>
  ctx.authorizer.require(principal, ['EDIT_ENTITY'], `User ${principal.actorUrn} is unauthorized to modify entity: ${urns[0] ?? ''}`);

/**
 * Deleting an entity needs EDIT_ENTITY; deleting (any part of) a user or group
 * needs MANAGE_USERS_AND_GROUPS, and the built-in administrator is never deleted,
 * so no Editor can lock the admins out.
 */
export async function requireDelete(ctx: AppContext, principal: Principal, urn: string): Promise<void> {
  const message = `User ${principal.actorUrn} is unauthorized to delete entity: ${urn}`;
  if (!isIdentityUrn(urn)) return ctx.authorizer.require(principal, ['EDIT_ENTITY'], message);
  await ctx.authorizer.require(principal, ['MANAGE_USERS_AND_GROUPS'], message);
  if (urn === ADMIN_URN) throw forbidden(`${ADMIN_URN} is the built-in administrator and cannot be deleted`);
}

/** The aspects that decide whether a user may act at all: suspension (corpUserStatus) and soft deletion (status). */
const ACCESS_ASPECTS = new Set(['corpUserStatus', 'status']);

/**
 * Writing a user's suspension or soft deletion is managing users: it needs
 * MANAGE_USERS_AND_GROUPS, and the built-in administrator's are never written,
 * so no Editor can lock a user, or every admin, out by ingestion.
 */
export async function requireAccessAspectWrites(ctx: AppContext, principal: Principal, writes: ReadonlyArray<{ urn: string; aspectName: string }>): Promise<void> {
  const touched = writes.filter((w) => ACCESS_ASPECTS.has(w.aspectName) && parseUrn(w.urn).entityType === 'corpuser');
  if (touched.length === 0) return;
  await ctx.authorizer.require(principal, ['MANAGE_USERS_AND_GROUPS'], `User ${principal.actorUrn} is unauthorized to modify entity: ${touched[0]!.urn}`);
  if (touched.some((w) => w.urn === ADMIN_URN)) throw forbidden(`${ADMIN_URN} is the built-in administrator and cannot be suspended or soft-deleted`);
}

/** Deprecating (one entity or a batch) needs EDIT_ENTITY or EDIT_DEPRECATION_PRIVILEGE, as in DataHub. */
export const requireDeprecationEdit = (ctx: AppContext, principal: Principal): Promise<void> =>
  ctx.authorizer.require(principal, ['EDIT_ENTITY', 'EDIT_DEPRECATION_PRIVILEGE'], UNAUTHORIZED_MESSAGE);

/** Rolling back an ingestion run needs MANAGE_INGESTION, as DataHub's MANAGE on ingestion sources; the message is DataHub's. */
export const requireManageIngestion = (ctx: AppContext, principal: Principal): Promise<void> =>
  ctx.authorizer.require(principal, ['MANAGE_INGESTION'], 'User is unauthorized to update entity');

/**
 * What a rollback deletes follows the delete rules: EDIT_ENTITY, MANAGE_USERS_AND_GROUPS when the run wrote to a user
 * or group, and never the built-in administrator. The message is DataHub's, its typo included.
 */
export async function requireRollbackDeletes(ctx: AppContext, principal: Principal, urns: readonly string[], created: readonly string[]): Promise<void> {
  const message = 'User is NOT unauthorized to delete entities.';
  await ctx.authorizer.require(principal, ['EDIT_ENTITY'], message);
  if (urns.some(isIdentityUrn)) await ctx.authorizer.require(principal, ['MANAGE_USERS_AND_GROUPS'], message);
  if (created.includes(ADMIN_URN)) throw forbidden(`${ADMIN_URN} is the built-in administrator and cannot be deleted`);
}
