import type { StoredAspect, ReadParts, AspectReads } from '../storage/store.ts';
import { POLICY_ASPECT, POLICY_ENTITY, readPolicyInfo, type Policy } from './policy.ts';

const PAGE = 1000;

/** The policies stored at these urns, in their order; unreadable values and missing entities are left out. */
export async function policiesAt(aspects: Pick<AspectReads, 'getEntities'>, urns: readonly string[]): Promise<Policy[]> {
  const stored = urns.length > 0 ? await aspects.getEntities(urns, [POLICY_ASPECT]) : new Map<string, StoredAspect[]>();
  return urns.flatMap((urn) => {
    const info = readPolicyInfo(stored.get(urn)?.find((a) => a.aspect === POLICY_ASPECT)?.value);
    return info ? [{ urn, info }] : [];
  });
}

/** Every policy stored, soft-deleted ones excepted. */
export async function loadPolicies({ aspects }: Pick<ReadParts, 'aspects'>): Promise<Policy[]> {
  const policies: Policy[] = [];
  for (let afterUrn: string | undefined; ;) {
    const urns = await aspects.listEntityUrns({ entityType: POLICY_ENTITY, limit: PAGE, removed: false, ...(afterUrn ? { afterUrn } : {}) });
    policies.push(...(await policiesAt(aspects, urns)));
    if (urns.length < PAGE) return policies;
    afterUrn = urns[urns.length - 1];
  }
}
