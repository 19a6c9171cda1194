import type { Principal } from '../auth/principal.ts';
import type { AppContext } from './context.ts';

/** Ingestion needs EDIT_ENTITY; the message is DataHub's. */
export const requireEdit = (ctx: AppContext, principal: Principal, urns: readonly string[]): Promise<void> =>
  ctx.authorizer.require(principal, ['EDIT_ENTITY'], `User ${principal.actorUrn} is unauthorized to modify entity: ${urns[0] ?? ''}`);

/** Deleting an entity needs EDIT_ENTITY too. */
export const requireDelete = (ctx: AppContext, principal: Principal, urn: string): Promise<void> =>
  ctx.authorizer.require(principal, ['EDIT_ENTITY'], `User ${principal.actorUrn} is unauthorized to delete entity: ${urn}`);
