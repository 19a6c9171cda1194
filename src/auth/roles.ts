import { badRequest } from '../catalog/errors.ts';
import { METADATA_PRIVILEGES, PRIVILEGES, type Privilege } from './privileges.ts';

/** DataHub's built-in roles, by urn, with the privileges Almanac enforces. */
export const ROLES = {
  'urn:li:dataHubRole:Admin': { name: 'Admin', description: 'Can do everything on the platform.', privileges: [...PRIVILEGES] },
  'urn:li:dataHubRole:Editor': {
    name: 'Editor',
    description: 'Can read and edit all metadata, manage domains and glossaries, and create their own access tokens.',
    privileges: [...METADATA_PRIVILEGES, 'GENERATE_PERSONAL_ACCESS_TOKENS', 'MANAGE_DOMAINS', 'MANAGE_GLOSSARIES'],
  },
  // As DataHub's reader-platform-policy: none of its own. Every user's own tokens (and the audit search) come from the
  // default policy "All Users - Base Platform Privileges" (default-policies.ts), which an administrator may turn off.
  'urn:li:dataHubRole:Reader': {
    name: 'Reader',
    description: 'Can read all metadata.',
    privileges: [],
  },
} as const satisfies Record<string, { name: string; description: string; privileges: readonly Privilege[] }>;

export type RoleUrn = keyof typeof ROLES;

/** What an actor with no role may do besides reading metadata, before policies: nothing, as in DataHub. */
export const NO_ROLE_PRIVILEGES: readonly Privilege[] = [];

export const isRoleUrn = (urn: string): urn is RoleUrn => Object.hasOwn(ROLES, urn);

/** Accepts a role urn or a bare role name (Admin, Editor, Reader), case-insensitively for the name. */
export function parseRole(value: string): RoleUrn {
  if (isRoleUrn(value)) return value;
  const byName = (Object.keys(ROLES) as RoleUrn[]).find((urn) => ROLES[urn].name.toLowerCase() === value.toLowerCase());
  if (byName) return byName;
  throw badRequest(`Unknown role ${value}: use one of ${Object.keys(ROLES).join(', ')}`);
}

export function privilegesOf(roleUrn: string | undefined): readonly Privilege[] {
  return roleUrn !== undefined && isRoleUrn(roleUrn) ? ROLES[roleUrn].privileges : NO_ROLE_PRIVILEGES;
}
