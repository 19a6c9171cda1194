import { badRequest } from '../catalog/errors.ts';
import { parseUrn } from '../catalog/urn.ts';
import {
  CRITERION_FIELDS,
  MATCH_CONDITIONS,
  POLICY_STATES,
  POLICY_TYPES,
  type MatchCondition,
  type PolicyInfo,
  type PolicyMatchFilter,
  type ResourceFilter,
} from './policy.ts';

/** Lists longer than this are refused: a policy is read on every request that consults policies. */
export const MAX_POLICY_LIST = 1000;

/** DataHub's PolicyUpdateInput, as GraphQL and the CLI send it. */
export interface PolicyUpdateInput {
  readonly type: string;
  readonly name: string;
  readonly state: string;
  readonly description?: string | null;
  readonly resources?: ResourceFilterInput | null;
  readonly privileges: readonly string[];
  readonly actors: ActorFilterInput;
}

export interface ResourceFilterInput {
  readonly type?: string | null;
  readonly resources?: readonly string[] | null;
  readonly allResources?: boolean | null;
  readonly filter?: PolicyMatchFilterInput | null;
  readonly privilegeConstraints?: PolicyMatchFilterInput | null;
}

export interface PolicyMatchFilterInput {
  readonly criteria?: ReadonlyArray<{ readonly field: string; readonly values: readonly string[]; readonly condition: string }> | null;
}

export interface ActorFilterInput {
  readonly users?: readonly string[] | null;
  readonly groups?: readonly string[] | null;
  readonly resourceOwners: boolean;
  readonly resourceOwnersTypes?: readonly string[] | null;
  readonly allUsers: boolean;
  readonly allGroups: boolean;
}

function oneOf<T extends string>(allowed: readonly T[], value: string, field: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw badRequest(`${field}: ${JSON.stringify(value)} is not one of ${allowed.join(', ')}`);
}

function list(values: readonly string[] | null | undefined, field: string, check?: (v: string, at: string) => void): string[] | undefined {
  if (values === null || values === undefined) return undefined;
  if (values.length > MAX_POLICY_LIST) throw badRequest(`${field}: at most ${MAX_POLICY_LIST} values`);
  values.forEach((v, i) => check?.(v, `${field}[${i}]`));
  return [...values];
}

function urnOf(entityType: string | undefined) {
  return (v: string, at: string) => {
    let type: string;
    try {
      type = parseUrn(v).entityType;
    } catch {
      throw badRequest(`${at}: ${JSON.stringify(v)} is not a valid urn`);
    }
    if (entityType !== undefined && type !== entityType) throw badRequest(`${at}: ${v} is not a ${entityType} urn`);
  };
}

function filterOf(input: PolicyMatchFilterInput, field: string): PolicyMatchFilter {
  const criteria = input.criteria ?? [];
  if (criteria.length > MAX_POLICY_LIST) throw badRequest(`${field}.criteria: at most ${MAX_POLICY_LIST} criteria`);
  return {
    criteria: criteria.map((c, i) => {
      const at = `${field}.criteria[${i}]`;
      // DataHub matches the field name case-insensitively; it is stored as sent.
      oneOf(CRITERION_FIELDS, c.field.toUpperCase(), `${at}.field`);
      if (c.values.length === 0) throw badRequest(`${at}.values: name at least one value`);
      return {
        field: c.field,
        values: list(c.values, `${at}.values`)!,
        condition: oneOf<MatchCondition>(MATCH_CONDITIONS, c.condition, `${at}.condition`),
      };
    }),
  };
}

function resourcesOf(input: ResourceFilterInput): ResourceFilter {
  const resources = list(input.resources, 'input.resources.resources', urnOf(undefined));
  return {
    ...(input.type ? { type: input.type } : {}),
    ...(resources ? { resources } : {}),
    allResources: input.allResources ?? false,
    ...(input.filter ? { filter: filterOf(input.filter, 'input.resources.filter') } : {}),
    ...(input.privilegeConstraints ? { privilegeConstraints: filterOf(input.privilegeConstraints, 'input.resources.privilegeConstraints') } : {}),
  };
}

/**
 * DataHub's PolicyUpdateInputInfoMapper, with the checks it leaves to its UI made
 * here, each error naming the field: a name, at least one privilege, well-formed
 * actor and resource urns, known criterion fields and conditions.
 */
export function policyInfoOf(input: PolicyUpdateInput, now: number): PolicyInfo {
  if (input.name.trim() === '') throw badRequest('input.name must not be empty');
  if (input.privileges.length === 0) throw badRequest('input.privileges must name at least one privilege');
  const privileges = list(input.privileges, 'input.privileges', (p, at) => {
    if (!/^[A-Z][A-Z0-9_]*$/.test(p)) throw badRequest(`${at}: ${JSON.stringify(p)} is not a privilege name`);
  })!;
  const a = input.actors;
  const users = list(a.users, 'input.actors.users', urnOf('corpuser'));
  const groups = list(a.groups, 'input.actors.groups', urnOf('corpGroup'));
  const ownerTypes = list(a.resourceOwnersTypes, 'input.actors.resourceOwnersTypes', urnOf('ownershipType'));
  return {
    displayName: input.name,
    description: input.description ?? '',
    type: oneOf(POLICY_TYPES, input.type, 'input.type'),
    state: oneOf(POLICY_STATES, input.state, 'input.state'),
    privileges,
    actors: {
      ...(users ? { users } : {}),
      ...(groups ? { groups } : {}),
      ...(ownerTypes ? { resourceOwnersTypes: ownerTypes } : {}),
      resourceOwners: a.resourceOwners,
      allUsers: a.allUsers,
      allGroups: a.allGroups,
    },
    ...(input.resources ? { resources: resourcesOf(input.resources) } : {}),
    editable: true,
    lastUpdatedTimestamp: now,
  };
}
