import { createLocalUser } from '../../src/auth/users.ts';
import type { RoleUrn } from '../../src/auth/roles.ts';
import type { TestServer } from './server.ts';

export type RoleName = 'Admin' | 'Editor' | 'Reader' | 'none';

/** Creates a local user with the given role (or none) and returns a bearer header for them. */
export async function actorWithRole(server: TestServer, username: string, role: RoleName, password = 'correct horse battery'): Promise<string> {
  const roleUrn = role === 'none' ? undefined : (`urn:li:dataHubRole:${role}` as RoleUrn);
  const urn = await createLocalUser(
    { ...server.app.services.store, catalog: server.app.services.catalog },
    { username, password, role: roleUrn, actor: 'urn:li:corpuser:datahub' },
    server.config.passwords,
  );
  const { token } = await server.app.services.tokens.mint({ actorUrn: urn, ownerUrn: urn, duration: 'ONE_DAY', name: `${username} test token` });
  return `Bearer ${token}`;
}

/** A new personal access token of the built-in administrator, with its stored record. */
export function mintAdminToken(services: TestServer['app']['services'], name: string) {
  return services.tokens.mint({ actorUrn: 'urn:li:corpuser:datahub', ownerUrn: 'urn:li:corpuser:datahub', duration: 'ONE_DAY', name });
}
