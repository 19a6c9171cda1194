import { CatalogError } from '../catalog/errors.ts';
import type { Store } from '../storage/store.ts';
import type { Principal } from './principal.ts';
import type { Privilege } from './privileges.ts';
import { privilegesOf } from './roles.ts';

/** DataHub's message for a GraphQL operation the caller may not perform. */
export const UNAUTHORIZED_MESSAGE = 'Unauthorized to perform this action. Please contact your DataHub administrator.';

/**
 * The one place that decides who may do what. Every operation asks it with the
 * privileges that allow it (any one suffices) and the message DataHub gives on
 * refusal. Roles are read from the database on each check, so a role change is
 * seen by every process at once.
 */
export class Authorizer {
  constructor(private readonly store: Store) {}

  async privileges(principal: Principal): Promise<readonly Privilege[]> {
    if (principal.kind === 'system') return privilegesOf('urn:li:dataHubRole:Admin');
    return privilegesOf(await this.store.getRole(principal.actorUrn));
  }

  async has(principal: Principal, anyOf: readonly Privilege[]): Promise<boolean> {
    const held = await this.privileges(principal);
    return anyOf.some((p) => held.includes(p));
  }

  /** Throws FORBIDDEN with `message` unless the principal holds one of `anyOf`. */
  async require(principal: Principal, anyOf: readonly Privilege[], message: string): Promise<void> {
    if (!(await this.has(principal, anyOf))) throw new CatalogError('FORBIDDEN', message);
  }
}
