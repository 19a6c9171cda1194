import crypto from 'node:crypto';
import type { Catalog } from '../catalog/catalog.ts';
import type { Parts } from '../storage/store.ts';
import { POLICY_ASPECT, POLICY_ENTITY, POLICY_URN_PREFIX, type ActorFilter, type PolicyInfo } from './policy.ts';
import { ADMIN_URN } from './principal.ts';
import { METADATA_PRIVILEGES, PRIVILEGES, type Privilege } from './privileges.ts';

const PLATFORM_PRIVILEGES: readonly Privilege[] = PRIVILEGES.filter((p) => !METADATA_PRIVILEGES.includes(p));
const NO_ACTORS: ActorFilter = { users: [], groups: [], resourceOwners: false, allUsers: false, allGroups: false };

interface DefaultPolicy {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly type: 'PLATFORM' | 'METADATA';
  readonly privileges: readonly Privilege[];
  readonly actors: Partial<ActorFilter>;
  readonly editable: boolean;
}

/**
 * The defaults DataHub boots with (its boot/policies.json), by the same ids, reduced to
 * the privileges Almanac enforces. Left out: the per-role policies, because Almanac's
 * roles carry their privileges themselves (src/auth/roles.ts), and the ones granting
 * only privileges Almanac has no use for (views, domains, data products).
 */
export const DEFAULT_POLICIES: readonly DefaultPolicy[] = [
  {
    id: '0',
    name: 'Root User - All Platform Privileges',
    description: 'The built-in administrator holds every platform privilege, whatever its role.',
    type: 'PLATFORM',
    privileges: PLATFORM_PRIVILEGES,
    actors: { users: [ADMIN_URN] },
    editable: false,
  },
  {
    id: '1',
    name: 'Root User - Edit and View All Resources',
    description: 'The built-in administrator may edit every entity, whatever its role.',
    type: 'METADATA',
    privileges: METADATA_PRIVILEGES,
    actors: { users: [ADMIN_URN] },
    editable: false,
  },
  {
    id: '7',
    name: 'All Users - Base Platform Privileges',
    description: 'Every user may create access tokens for themselves and search the audit events. Change this policy to alter that.',
    type: 'PLATFORM',
    privileges: ['VIEW_ANALYTICS', 'GENERATE_PERSONAL_ACCESS_TOKENS'],
    actors: { allUsers: true },
    editable: true,
  },
  {
    id: 'asset-owners-metadata-policy',
    name: 'Asset Owners - Metadata Policy',
    description: 'Owners of an entity may edit it and its deprecation, and only the entities they own.',
    type: 'METADATA',
    privileges: METADATA_PRIVILEGES,
    actors: { resourceOwners: true },
    editable: true,
  },
];

export const defaultPolicyInfo = (p: DefaultPolicy, now: number): PolicyInfo => ({
  displayName: p.name,
  description: p.description,
  type: p.type,
  state: 'ACTIVE',
  privileges: [...p.privileges],
  actors: { ...NO_ACTORS, ...p.actors },
  editable: p.editable,
  lastUpdatedTimestamp: now,
});

/**
 * Installs the default policies once per database, on its first start: a default
 * an administrator later changes or deletes stays as they left it.
 */
export async function installDefaultPolicies({ database }: Pick<Parts, 'database'>, catalog: Catalog, now: number): Promise<void> {
  const marker = crypto.randomUUID();
  if ((await database.getOrInitSetting('bootstrap.default_policies_installed', () => marker)) !== marker) return;
  await catalog.ingest(
    DEFAULT_POLICIES.map((p) => ({
      entityType: POLICY_ENTITY,
      urn: `${POLICY_URN_PREFIX}${p.id}`,
      changeType: 'UPSERT',
      aspectName: POLICY_ASPECT,
      value: defaultPolicyInfo(p, now),
      systemMetadata: null,
    })),
    ADMIN_URN,
  );
}
