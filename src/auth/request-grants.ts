import { parseUrn } from '../catalog/urn.ts';
import type { GrantBasis, Json, ReadParts } from '../storage/store.ts';
import type { AuthStateCache } from './auth-state-cache.ts';
import type { Principal } from './principal.ts';
import type { PolicyCache } from './policy-cache.ts';
import type { Policy } from './policy.ts';
import type { ActorSpec, ResourceFacts, ResourceSpec } from './policy-engine.ts';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const records = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isRecord) : []);
const urnsAt = (v: unknown, key: string): string[] =>
  isRecord(v) && Array.isArray(v[key]) ? v[key].filter((s): s is string => typeof s === 'string') : [];

/** A malformed urn matches no type criterion; the operation's own validation reports it. */
function entityTypeOf(urn: string): string {
  try {
    return parseUrn(urn).entityType;
  } catch {
    return '';
  }
}

function factsOf(aspects: ReadonlyMap<string, Json>): ResourceFacts {
  return {
    owners: records((aspects.get('ownership') as Record<string, unknown> | undefined)?.['owners']).flatMap((o) =>
      typeof o['owner'] === 'string' ? [{ owner: o['owner'], ...(typeof o['typeUrn'] === 'string' ? { typeUrn: o['typeUrn'] } : {}) }] : [],
    ),
    tags: records((aspects.get('globalTags') as Record<string, unknown> | undefined)?.['tags']).flatMap((t) =>
      typeof t['tag'] === 'string' ? [t['tag']] : [],
    ),
    domains: urnsAt(aspects.get('domains'), 'domains'),
    containers:
      typeof (aspects.get('container') as Record<string, unknown> | undefined)?.['container'] === 'string'
        ? [(aspects.get('container') as { container: string }).container]
        : [],
  };
}

/**
 * What one request has read to decide its authorisations: the caller's role, the
 * policies, the caller's groups and the facts of the resources asked about. Each is
 * read at most once per request; the role and the policies' counter outlive it while the
 * store's auth change mark holds (AuthStateCache), the policies while the counter does
 * (PolicyCache), so a change made by any process is seen by the next request.
 */
export class RequestGrants {
  private basis?: Promise<GrantBasis>;
  private policyList?: Promise<Policy[]>;
  private groupSet?: Promise<ReadonlySet<string>>;
  private readonly facts = new Map<string, Promise<ResourceFacts>>();

  constructor(
    private readonly ports: Pick<ReadParts, 'aspects' | 'identity'>,
    private readonly policyCache: PolicyCache,
    private readonly state: AuthStateCache,
    private readonly principal: Pick<Principal, 'actorUrn' | 'authMark'>,
  ) {}

  get actorUrn(): string {
    return this.principal.actorUrn;
  }

  /** The caller's role and the policies' change counter, read together once, or not at all while the process's copy holds. */
  private grantBasis(): Promise<GrantBasis> {
    return (this.basis ??= (async () => {
      // The mark authentication read, when it did: one barrier per request, not one per lookup.
      const mark = this.principal.authMark ?? (await this.state.mark());
      return this.state.get(mark, `grants\u0000${this.actorUrn}`, () => this.ports.identity.grantBasis(this.actorUrn));
    })());
  }

  roleUrn(): Promise<string | undefined> {
    return this.grantBasis().then((b) => b.roleUrn);
  }

  policies(): Promise<Policy[]> {
    return (this.policyList ??= this.grantBasis().then((b) => this.policyCache.policiesAt(b.policyChanges)));
  }

  /** DataHub reads a user's groups from both membership aspects (external and native). */
  private groups(): Promise<ReadonlySet<string>> {
    return (this.groupSet ??= this.ports.aspects
      .getLatestAspects(this.actorUrn, ['groupMembership', 'nativeGroupMembership'])
      .then((aspects) => new Set(aspects.flatMap((a) => [...urnsAt(a.value, 'groups'), ...urnsAt(a.value, 'nativeGroups')]))));
  }

  async actor(): Promise<ActorSpec> {
    return { urn: this.actorUrn, role: await this.roleUrn(), groups: () => this.groups() };
  }

  resource(urn: string): ResourceSpec {
    const load = () => {
      let facts = this.facts.get(urn);
      if (!facts) {
        facts = this.ports.aspects
          .getLatestAspects(urn, ['ownership', 'globalTags', 'domains', 'container'])
          .then((found) => factsOf(new Map(found.map((a) => [a.aspect, a.value]))));
        this.facts.set(urn, facts);
      }
      return facts;
    };
    return { urn, entityType: entityTypeOf(urn), facts: load };
  }
}
