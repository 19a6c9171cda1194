import { badRequest } from '../catalog/errors.ts';
import type { Catalog } from '../catalog/catalog.ts';
import type { Store } from '../storage/store.ts';
import { hashPassword } from './passwords.ts';
import { corpUserUrn } from './principal.ts';
import type { RoleUrn } from './roles.ts';

export const MIN_PASSWORD_LENGTH = 8;

/** Creates (or updates) a local user with a password and an optional role, as `almanac user create` does. */
export async function createLocalUser(
  { store, catalog }: { readonly store: Store; readonly catalog: Catalog },
  input: { username: string; password: string; role?: RoleUrn; actor: string },
): Promise<string> {
  if (!/^[A-Za-z0-9._@-]{1,128}$/.test(input.username)) {
    throw badRequest('username must be 1 to 128 characters of letters, digits, ".", "_", "@" or "-"');
  }
  if (input.password.length < MIN_PASSWORD_LENGTH) throw badRequest(`password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  const urn = corpUserUrn(input.username);
  const now = Date.now();
  await catalog.ensureUser(urn, input.actor);
  await store.setPasswordHash(urn, await hashPassword(input.password), now);
  if (input.role) await store.setRole([urn], input.role, input.actor, now);
  return urn;
}
