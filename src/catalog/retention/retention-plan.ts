import { timeseriesAspectPairs } from '../registry/index.ts';
import type { RetentionPolicies } from './retention-policies.ts';
import { versionRuleOf } from './retention-policy.ts';
import type { RetentionPolicyRecord, Parts, VersionRule, ReadParts } from '../../storage/store.ts';

export interface PolicyRef {
  readonly entity: string;
  readonly aspect: string;
}

const refOf = (p: RetentionPolicyRecord): PolicyRef => ({ entity: p.entityType, aspect: p.aspect });
const inScope = (p: RetentionPolicyRecord, scope: PolicyRef | null) => scope === null || (p.entityType === scope.entity && p.aspect === scope.aspect);

/** One timeseries index a policy with an age governs, with what keeping that age means now. */
export interface TimeseriesPlanItem {
  readonly entityType: string;
  readonly aspect: string;
  readonly policy: PolicyRef;
  readonly cutoffMillis: number;
  readonly rowsToDelete: number;
  readonly totalRows: number;
  readonly sharePercent: number;
  /** Deleting this share needs confirming (ALMANAC_RETENTION_MAX_DELETE_PERCENT). */
  readonly needsConfirmation: boolean;
}

/**
 * Every non-empty timeseries index whose governing policy keeps rows by age, with the rows that age puts before the
 * cutoff: the counts a truncation's dry run reads (partition row counts, one range count in the boundary day).
 */
export async function planTimeseries(
  { timeseries }: Pick<Parts, 'timeseries'>,
  policies: RetentionPolicies,
  now: number,
  maxDeletePercent: number,
  scope: PolicyRef | null = null,
): Promise<TimeseriesPlanItem[]> {
  const items: TimeseriesPlanItem[] = [];
  for (const index of timeseriesAspectPairs()) {
    const policy = policies.governing(index.entityType, index.aspect);
    if (!policy || policy.maxAgeSeconds === null || !inScope(policy, scope)) continue;
    const cutoffMillis = now - policy.maxAgeSeconds * 1000;
    const counts = await timeseries.countTimeseriesBefore(index, cutoffMillis);
    if (counts.total === 0) continue;
    const sharePercent = (counts.matching / counts.total) * 100;
    items.push({
      ...index,
      policy: refOf(policy),
      cutoffMillis,
      rowsToDelete: counts.matching,
      totalRows: counts.total,
      sharePercent,
      needsConfirmation: sharePercent > maxDeletePercent,
    });
  }
  return items;
}

/** One (entity type, aspect) pair with earlier versions and the rule of its governing policy. */
export interface VersionPlanItem {
  readonly entityType: string;
  readonly aspect: string;
  readonly policy: PolicyRef;
  readonly rule: VersionRule;
  /** Earlier versions stored. */
  readonly versions: number;
}

export async function planVersions(
  { retention }: Pick<ReadParts, 'retention'>,
  policies: RetentionPolicies,
  scope: PolicyRef | null = null,
): Promise<VersionPlanItem[]> {
  const items: VersionPlanItem[] = [];
  for (const pair of await retention.versionHistoryPairs()) {
    const policy = policies.governing(pair.entityType, pair.aspect);
    const rule = versionRuleOf(policy);
    if (!policy || !rule || !inScope(policy, scope)) continue;
    items.push({ ...pair, policy: refOf(policy), rule });
  }
  return items;
}
