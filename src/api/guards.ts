import { UNAUTHORIZED_MESSAGE } from '../auth/authorizer.ts';
import type { Principal } from '../auth/principal.ts';
import type { AppContext } from './context.ts';

/** Ingestion needs EDIT_ENTITY; the message is DataHub's. */
export const requireEdit = (ctx: AppContext, principal: Principal, urns: readonly string[]): Promise<void> =>
  ctx.authorizer.require(principal, ['EDIT_ENTITY'], `User ${principal.actorUrn} is unauthorized to modify entity: ${urns[0] ?? ''}`);

/** Deleting an entity needs EDIT_ENTITY too. */
export const requireDelete = (ctx: AppContext, principal: Principal, urn: string): Promise<void> =>
  ctx.authorizer.require(principal, ['EDIT_ENTITY'], `User ${principal.actorUrn} is unauthorized to delete entity: ${urn}`);

/** Deprecating (one entity or a batch) needs EDIT_ENTITY or EDIT_DEPRECATION_PRIVILEGE, as in DataHub. */
export const requireDeprecationEdit = (ctx: AppContext, principal: Principal): Promise<void> =>
  ctx.authorizer.require(principal, ['EDIT_ENTITY', 'EDIT_DEPRECATION_PRIVILEGE'], UNAUTHORIZED_MESSAGE);
