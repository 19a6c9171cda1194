import type { PolicyCriterion, PolicyInfo, PolicyMatchFilter, ResourceFilter } from './policy.ts';

/** An owner of a resource, with the urn of its ownership type when it has one. */
export interface ResourceOwner {
  readonly owner: string;
  readonly typeUrn?: string;
}

/** What criteria and owner actors may test about a resource, read only when a policy needs it. */
export interface ResourceFacts {
  readonly owners: readonly ResourceOwner[];
  readonly tags: readonly string[];
  readonly domains: readonly string[];
  readonly containers: readonly string[];
}

export interface ResourceSpec {
  readonly urn: string;
  readonly entityType: string;
  readonly facts: () => Promise<ResourceFacts>;
}

/** The actor being decided on; groups are read only when a policy names groups or owners. */
export interface ActorSpec {
  readonly urn: string;
  readonly role: string | undefined;
  readonly groups: () => Promise<ReadonlySet<string>>;
}

/** The policy's resource filter in its current form: the deprecated type/resources fields become criteria. */
function filterOf(resources: ResourceFilter): PolicyMatchFilter {
  if (resources.filter) return resources.filter;
  const criteria: PolicyCriterion[] = [];
  if (resources.type !== undefined) criteria.push({ field: 'TYPE', values: [resources.type], condition: 'EQUALS' });
  if (resources.resources !== undefined && !resources.allResources) criteria.push({ field: 'URN', values: resources.resources, condition: 'EQUALS' });
  return { criteria };
}

async function fieldValues(field: string, resource: ResourceSpec): Promise<ReadonlySet<string>> {
  switch (field.toUpperCase()) {
    case 'TYPE':
    case 'RESOURCE_TYPE':
      return new Set([resource.entityType]);
    case 'URN':
    case 'RESOURCE_URN':
      return new Set([resource.urn]);
    case 'OWNER':
      return new Set((await resource.facts()).owners.map((o) => o.owner));
    case 'TAG':
      return new Set((await resource.facts()).tags);
    case 'DOMAIN':
      return new Set((await resource.facts()).domains);
    case 'CONTAINER':
      return new Set((await resource.facts()).containers);
    default:
      // Fields Almanac does not resolve (platform instance, glossary, group membership) match nothing, so never over-grant.
      return new Set();
  }
}

async function criterionMatches(c: PolicyCriterion, resource: ResourceSpec): Promise<boolean> {
  const values = await fieldValues(c.field, resource);
  switch (c.condition) {
    case 'EQUALS':
      return c.values.some((v) => values.has(v));
    case 'STARTS_WITH':
      return c.values.some((v) => [...values].some((f) => f.startsWith(v)));
    case 'NOT_EQUALS':
      return !c.values.some((v) => values.has(v));
  }
}

/** DataHub's isResourceMatch: platform policies and unfiltered metadata policies match with or without a resource. */
async function resourceMatches(policy: PolicyInfo, resource: ResourceSpec | undefined): Promise<boolean> {
  if (policy.type === 'PLATFORM' || policy.resources === undefined) return true;
  if (resource === undefined) return false;
  for (const c of filterOf(policy.resources).criteria) if (!(await criterionMatches(c, resource))) return false;
  return true;
}

async function ownerMatches(policy: PolicyInfo, actor: ActorSpec, resource: ResourceSpec | undefined): Promise<boolean> {
  if (!policy.actors.resourceOwners || resource === undefined) return false;
  const types = policy.actors.resourceOwnersTypes;
  const owners = new Set(
    (await resource.facts()).owners.filter((o) => types === undefined || (o.typeUrn !== undefined && types.includes(o.typeUrn))).map((o) => o.owner),
  );
  if (owners.has(actor.urn)) return true;
  return [...(await actor.groups())].some((g) => owners.has(g));
}

/** Users, groups and roles: the actor predicates that need no resource. */
async function actorMatches(policy: PolicyInfo, actor: ActorSpec): Promise<boolean> {
  const a = policy.actors;
  if (a.allUsers || (a.users ?? []).includes(actor.urn)) return true;
  if (actor.role !== undefined && (a.roles ?? []).includes(actor.role)) return true;
  if (!a.allGroups && (a.groups ?? []).length === 0) return false;
  const groups = await actor.groups();
  return (a.allGroups && groups.size > 0) || (a.groups ?? []).some((g) => groups.has(g));
}

/**
 * Whether one policy grants one of `anyOf` to the actor on the resource, with
 * DataHub's PolicyEngine semantics: an inactive policy grants nothing; the
 * actor must match (user, group, role, or owner of the resource) and the
 * resource must match the policy's filter.
 */
export async function policyGrants(
  policy: PolicyInfo,
  anyOf: readonly string[],
  actor: ActorSpec,
  resource: ResourceSpec | undefined,
): Promise<boolean> {
  if (policy.state === 'INACTIVE' || !anyOf.some((p) => policy.privileges.includes(p))) return false;
  if (await actorMatches(policy, actor)) return resourceMatches(policy, resource);
  if (!policy.actors.resourceOwners) return false;
  return (await resourceMatches(policy, resource)) && ownerMatches(policy, actor, resource);
}
