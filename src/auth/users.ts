import { badRequest } from '../catalog/errors.ts';
import type { Catalog } from '../catalog/catalog.ts';
import type { Parts } from '../storage/store.ts';
import { hashPassword } from './passwords.ts';
import { corpUserUrn } from './principal.ts';
import type { RoleUrn } from './roles.ts';

/** The longest password sign-in accepts; scrypt's cost does not depend on it, but a bound keeps requests small. */
export const MAX_PASSWORD_LENGTH = 1024;

/** What a new password must satisfy: the operator's ALMANAC_PASSWORD_MIN_LENGTH (config.ts). */
export interface PasswordRules {
  readonly minLength: number;
}

/** Almanac's password rule, for every way a password is set. */
export function checkPassword(password: string, rules: PasswordRules): void {
  if (password.length < rules.minLength || password.length > MAX_PASSWORD_LENGTH) {
    throw badRequest(`Field 'password' must be from ${rules.minLength} to ${MAX_PASSWORD_LENGTH} characters`);
  }
}

/** Creates (or updates) a local user with a password and an optional role, as `almanac user create` does; a reset password ends the user's sessions. */
export async function createLocalUser(
  { identity, userAccess, catalog }: Pick<Parts, 'identity' | 'userAccess'> & { readonly catalog: Catalog },
  input: { username: string; password: string; role?: RoleUrn; actor: string },
  rules: PasswordRules,
): Promise<string> {
  if (!/^[A-Za-z0-9._@-]{1,128}$/.test(input.username)) {
    throw badRequest('username must be 1 to 128 characters of letters, digits, ".", "_", "@" or "-"');
  }
  checkPassword(input.password, rules);
  const urn = corpUserUrn(input.username);
  const now = Date.now();
  await catalog.ensureUser(urn, input.actor);
  await userAccess.resetPassword(urn, await hashPassword(input.password), now);
  if (input.role) await identity.setRole([urn], input.role, input.actor, now);
  return urn;
}
