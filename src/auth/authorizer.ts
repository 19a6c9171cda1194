import { CatalogError } from '../catalog/errors.ts';
import type { Principal } from './principal.ts';
import type { Privilege } from './privileges.ts';

/**
 * The one place that decides who may do what. Every operation asks it with the
 * privileges that allow it (any one suffices) and the message DataHub gives on
 * refusal. Until roles land (issue 5), every authenticated actor holds every privilege.
 */
export class Authorizer {
  async has(_principal: Principal, _anyOf: readonly Privilege[]): Promise<boolean> {
    return true;
  }

  /** Throws FORBIDDEN with `message` unless the principal holds one of `anyOf`. */
  async require(principal: Principal, anyOf: readonly Privilege[], message: string): Promise<void> {
    if (!(await this.has(principal, anyOf))) throw new CatalogError('FORBIDDEN', message);
  }
}
