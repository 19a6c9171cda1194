import type { Json } from '../storage/store.ts';

/** DataHub's policy entity and its one aspect; policies are stored as any other entity is. */
export const POLICY_ENTITY = 'dataHubPolicy';
export const POLICY_ASPECT = 'dataHubPolicyInfo';
export const POLICY_URN_PREFIX = 'urn:li:dataHubPolicy:';

export const POLICY_TYPES = ['METADATA', 'PLATFORM'] as const;
export const POLICY_STATES = ['DRAFT', 'ACTIVE', 'INACTIVE'] as const;
export const MATCH_CONDITIONS = ['EQUALS', 'STARTS_WITH', 'NOT_EQUALS'] as const;
/** DataHub's EntityFieldType: what a resource criterion may test (RESOURCE_* are its deprecated spellings). */
export const CRITERION_FIELDS = [
  'RESOURCE_URN',
  'RESOURCE_TYPE',
  'TYPE',
  'URN',
  'OWNER',
  'DOMAIN',
  'GROUP_MEMBERSHIP',
  'DATA_PLATFORM_INSTANCE',
  'TAG',
  'CONTAINER',
  'GLOSSARY',
] as const;

export type MatchCondition = (typeof MATCH_CONDITIONS)[number];

export interface PolicyCriterion {
  readonly field: string;
  readonly values: readonly string[];
  readonly condition: MatchCondition;
}

export interface PolicyMatchFilter {
  readonly criteria: readonly PolicyCriterion[];
}

/** DataHubResourceFilter; `type`, `resources` and `allResources` are its deprecated form, still honoured. */
export interface ResourceFilter {
  readonly type?: string;
  readonly resources?: readonly string[];
  readonly allResources: boolean;
  readonly filter?: PolicyMatchFilter;
  readonly privilegeConstraints?: PolicyMatchFilter;
}

/** DataHubActorFilter. */
export interface ActorFilter {
  readonly users?: readonly string[];
  readonly groups?: readonly string[];
  readonly roles?: readonly string[];
  readonly resourceOwners: boolean;
  readonly resourceOwnersTypes?: readonly string[];
  readonly allUsers: boolean;
  readonly allGroups: boolean;
}

/** DataHubPolicyInfo, the stored aspect. */
export interface PolicyInfo {
  readonly displayName: string;
  readonly description: string;
  readonly type: string;
  readonly state: string;
  readonly resources?: ResourceFilter;
  readonly privileges: readonly string[];
  readonly actors: ActorFilter;
  readonly editable: boolean;
  readonly lastUpdatedTimestamp?: number;
}

export interface Policy {
  readonly urn: string;
  readonly info: PolicyInfo;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : undefined);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

function readFilter(v: unknown): PolicyMatchFilter | undefined {
  if (!isRecord(v)) return undefined;
  const criteria = Array.isArray(v['criteria']) ? v['criteria'].filter(isRecord) : [];
  return {
    criteria: criteria.map((c) => ({
      field: text(c['field']),
      values: strings(c['values']) ?? [],
      // The PDL default, for criteria written without one.
      condition: (MATCH_CONDITIONS as readonly unknown[]).includes(c['condition']) ? (c['condition'] as MatchCondition) : 'EQUALS',
    })),
  };
}

/**
 * Reads a stored dataHubPolicyInfo. The aspect APIs accept any object for it, so a
 * value that is not a policy reads as undefined and grants nothing, and the PDL's
 * defaults fill the fields left out.
 */
export function readPolicyInfo(value: Json | undefined): PolicyInfo | undefined {
  if (!isRecord(value) || !isRecord(value['actors'])) return undefined;
  const privileges = strings(value['privileges']);
  if (privileges === undefined) return undefined;
  const a = value['actors'];
  const r = value['resources'];
  const optional = <K extends string, T>(key: K, v: T | undefined) => (v === undefined ? {} : ({ [key]: v } as Record<K, T>));
  return {
    displayName: text(value['displayName']),
    description: text(value['description']),
    type: text(value['type']),
    state: text(value['state']),
    privileges,
    editable: value['editable'] !== false,
    ...optional('lastUpdatedTimestamp', typeof value['lastUpdatedTimestamp'] === 'number' ? value['lastUpdatedTimestamp'] : undefined),
    actors: {
      ...optional('users', strings(a['users'])),
      ...optional('groups', strings(a['groups'])),
      ...optional('roles', strings(a['roles'])),
      ...optional('resourceOwnersTypes', strings(a['resourceOwnersTypes'])),
      resourceOwners: a['resourceOwners'] === true,
      allUsers: a['allUsers'] === true,
      allGroups: a['allGroups'] === true,
    },
    ...optional(
      'resources',
      isRecord(r)
        ? {
            ...optional('type', typeof r['type'] === 'string' ? r['type'] : undefined),
            ...optional('resources', strings(r['resources'])),
            allResources: r['allResources'] === true,
            ...optional('filter', readFilter(r['filter'])),
            ...optional('privilegeConstraints', readFilter(r['privilegeConstraints'])),
          }
        : undefined,
    ),
  };
}
