import { CatalogError } from '../catalog/errors.ts';
import type { ReadParts } from '../storage/store.ts';
import { OPERATIONS, refusalMessage, type Operation } from './operations.ts';
import type { PolicyInfo } from './policy.ts';
import { AuthStateCache } from './auth-state-cache.ts';
import { PolicyCache } from './policy-cache.ts';
import { policyGrants } from './policy-engine.ts';
import type { Principal } from './principal.ts';
import { isPrivilege, type Privilege } from './privileges.ts';
import { RequestGrants } from './request-grants.ts';
import { privilegesOf } from './roles.ts';

export { UNAUTHORIZED_MESSAGE } from './operations.ts';

/** Whether deciding a policy may read the caller's groups or the resource's owners. */
const needsLookups = ({ actors }: PolicyInfo): boolean => actors.resourceOwners || actors.allGroups || (actors.groups ?? []).length > 0;

/**
 * The one place that decides who may do what: an operation (see OPERATIONS) is
 * allowed when the caller's role, or an active policy, grants one of its
 * privileges (on the resource, for operations on an entity). A caller's role and the policies'
 * change counter are kept per process while the store's auth change mark stays the same
 * (AuthStateCache), the policies while the counter does, so a change made through any process
 * sharing the database applies to the next request.
 */
export class Authorizer {
  /** A principal is built per request by the authenticator, so this holds what one request has read, and dies with it. */
  private readonly perRequest = new WeakMap<Principal, RequestGrants>();

  private readonly policies: PolicyCache;
  private readonly state: AuthStateCache;

  constructor(
    private readonly ports: Pick<ReadParts, 'aspects' | 'identity'>,
    state?: AuthStateCache,
  ) {
    this.policies = new PolicyCache(ports);
    this.state = state ?? new AuthStateCache(ports);
  }

  private grants(principal: Principal): RequestGrants {
    let grants = this.perRequest.get(principal);
    if (!grants) {
      grants = new RequestGrants(this.ports, this.policies, this.state, principal);
      this.perRequest.set(principal, grants);
    }
    return grants;
  }

  /** What the caller holds without naming a resource: its role's privileges and those of policies that need none. */
  async privileges(principal: Principal): Promise<readonly Privilege[]> {
    if (principal.kind === 'system') return privilegesOf('urn:li:dataHubRole:Admin');
    const grants = this.grants(principal);
    const held = new Set<Privilege>(privilegesOf(await grants.roleUrn()));
    const actor = await grants.actor();
    for (const { info } of await grants.policies()) {
      for (const p of info.privileges) if (isPrivilege(p) && !held.has(p) && (await policyGrants(info, [p], actor, undefined))) held.add(p);
    }
    return [...held];
  }

  /** Whether the caller may perform the operation (on `resourceUrn`, for operations on an entity). */
  async allows(principal: Principal, operation: Operation, resourceUrn?: string): Promise<boolean> {
    if (principal.kind === 'system') return true;
    const rule = OPERATIONS[operation];
    const grants = this.grants(principal);
    // Roles first: most callers are decided by them, and the policies are then never read.
    const role = await grants.roleUrn();
    if (rule.anyOf.some((p) => privilegesOf(role).includes(p))) return true;
    const actor = await grants.actor();
    const resource = rule.on === 'resource' && resourceUrn !== undefined ? grants.resource(resourceUrn) : undefined;
    const policies = await grants.policies();
    // Any one grant suffices, so policies decided without reading groups or ownership go first.
    for (const later of [false, true]) {
      for (const { info } of policies) if (needsLookups(info) === later && (await policyGrants(info, rule.anyOf, actor, resource))) return true;
    }
    return false;
  }

  /** Throws FORBIDDEN with DataHub's message for the operation unless the caller may perform it. */
  async require(principal: Principal, operation: Operation, resourceUrn?: string): Promise<void> {
    if (!(await this.allows(principal, operation, resourceUrn))) {
      throw new CatalogError('FORBIDDEN', refusalMessage(operation, { actor: principal.actorUrn, urn: resourceUrn ?? '' }));
    }
  }

  /** `require` on each resource in turn; the refusal names the first one refused. */
  async requireEach(principal: Principal, operation: Operation, resourceUrns: readonly string[]): Promise<void> {
    for (const urn of new Set(resourceUrns)) await this.require(principal, operation, urn);
  }
}
