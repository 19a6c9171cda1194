import crypto from 'node:crypto';
import type { Catalog } from '../catalog/catalog.ts';
import type { EntitySearch } from '../catalog/search/entity-search.ts';
import { badRequest } from '../catalog/errors.ts';
import { fullTextQuery, type SearchFilter } from '../catalog/search/search-filter.ts';
import { parseUrn } from '../catalog/urn.ts';
import type { Authorizer } from './authorizer.ts';
import { policyInfoOf, type PolicyUpdateInput } from './policy-input.ts';
import { policiesAt } from './policy-reads.ts';
import { POLICY_ASPECT, POLICY_ENTITY, POLICY_URN_PREFIX, type Policy, type PolicyInfo } from './policy.ts';
import type { Principal } from './principal.ts';
import type { Parts } from '../storage/store.ts';
import { recordAudit, type AuditEventType } from './audit-events.ts';

export const DEFAULT_POLICY_PAGE = 20;
export const MAX_POLICY_PAGE = 1000;

export interface PolicyListQuery {
  readonly start?: number | null;
  readonly count?: number | null;
  readonly query?: string | null;
  /** Disjunction of conjunctions over dataHubPolicyInfo's searchable fields (state, type, privileges, users, ...). */
  readonly filter?: SearchFilter;
}

export interface PolicyPage {
  readonly start: number;
  readonly count: number;
  readonly total: number;
  readonly policies: readonly Policy[];
}

function policyUrn(urn: string): string {
  if (parseUrn(urn).entityType !== POLICY_ENTITY) throw badRequest(`urn: ${urn} is not a ${POLICY_ENTITY} urn`);
  return urn;
}

/**
 * DataHub's policy management (listPolicies, createPolicy, updatePolicy,
 * deletePolicy), all needing MANAGE_POLICIES. A policy is a dataHubPolicy entity
 * whose dataHubPolicyInfo aspect is written like any other, so it has history
 * and is read by the aspect APIs too; the authorizer reads policies afresh per
 * request, so a change here applies to the next request everywhere.
 */
export class PolicyService {
  constructor(
    private readonly catalog: Catalog,
    private readonly search: EntitySearch,
    private readonly authorizer: Authorizer,
    private readonly ports: Pick<Parts, 'audit'>,
    private readonly clock: () => number = Date.now,
  ) {}

  async list(principal: Principal, q: PolicyListQuery): Promise<PolicyPage> {
    await this.authorizer.require(principal, 'managePolicies');
    const start = q.start ?? 0;
    const count = q.count ?? DEFAULT_POLICY_PAGE;
    if (!Number.isInteger(start) || start < 0) throw badRequest('input.start must be a non-negative integer');
    if (!Number.isInteger(count) || count < 0 || count > MAX_POLICY_PAGE)
      throw badRequest(`input.count must be an integer from 0 to ${MAX_POLICY_PAGE}`);
    const page = await this.search.page(
      {
        entityTypes: [POLICY_ENTITY],
        query: fullTextQuery(q.query),
        filter: q.filter ?? [],
        includeSoftDeleted: false,
        // DataHub's PolicyFetcher order: most recently updated first.
        sort: [{ field: 'lastUpdatedTimestamp', order: 'DESCENDING' }],
      },
      start,
      count,
      { total: true },
    );
    const policies = await policiesAt(
      this.catalog,
      page.hits.map((h) => h.urn),
    );
    return { start, count, total: await page.total(), policies };
  }

  async get(principal: Principal, urn: string): Promise<Policy | undefined> {
    await this.authorizer.require(principal, 'managePolicies');
    return (await policiesAt(this.catalog, [policyUrn(urn)]))[0];
  }

  /** Creates a policy under a new random id, as DataHub does; returns its urn. */
  create(principal: Principal, input: PolicyUpdateInput): Promise<string> {
    return this.write(principal, `${POLICY_URN_PREFIX}${crypto.randomUUID()}`, input, 'CreatePolicyEvent');
  }

  /** Replaces a policy's info (DataHub upserts: an unknown urn is created). */
  update(principal: Principal, urn: string, input: PolicyUpdateInput): Promise<string> {
    return this.write(principal, policyUrn(urn), input, 'UpdatePolicyEvent');
  }

  /** Deletes the policy entity, as DataHub does; returns the urn whether or not it existed. */
  async delete(principal: Principal, urn: string): Promise<string> {
    await this.authorizer.require(principal, 'managePolicies');
    await this.catalog.delete({ urn: policyUrn(urn) });
    await recordAudit(this.ports.audit, 'DeletePolicyEvent', principal.actorUrn, { entityUrn: policyUrn(urn) }, this.clock());
    return urn;
  }

  private async write(principal: Principal, urn: string, input: PolicyUpdateInput, event: AuditEventType): Promise<string> {
    await this.authorizer.require(principal, 'managePolicies');
    const now = this.clock();
    await this.save(urn, policyInfoOf(input, now), principal.actorUrn);
    await recordAudit(this.ports.audit, event, principal.actorUrn, { entityUrn: urn, aspectName: POLICY_ASPECT }, now);
    return urn;
  }

  private async save(urn: string, info: PolicyInfo, actor: string): Promise<void> {
    await this.catalog.ingest(
      [{ entityType: POLICY_ENTITY, urn, changeType: 'UPSERT', aspectName: POLICY_ASPECT, value: info, systemMetadata: null }],
      actor,
    );
  }
}
