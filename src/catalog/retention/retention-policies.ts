import type { ReadParts, RetentionPolicyRecord, VersionRetention, VersionRule } from '../../storage/store.ts';
import { governingPolicy, policyKey, versionRuleOf } from './retention-policy.ts';

/**
 * The process's copy of the retention policies, which the store asks on every write that makes a new version
 * (`VersionRetention`). Reloaded at once after a change made here, and read again every `refreshMillis` so a change
 * made by another process applies here within that bound (a version written in between is caught by the next write
 * of its aspect or the next retention pass).
 */
export class RetentionPolicies implements VersionRetention {
  private byKey = new Map<string, RetentionPolicyRecord>();
  private rules = new Map<string, VersionRule | null>();
  private timer: NodeJS.Timeout | undefined;
  private retention: ReadParts['retention'] | undefined;

  /** Reads the policies from the store; until then no policy applies. */
  async load(retention: ReadParts['retention']): Promise<void> {
    this.retention = retention;
    this.replace(await retention.listRetentionPolicies());
  }

  async reload(): Promise<void> {
    if (this.retention) this.replace(await this.retention.listRetentionPolicies());
  }

  startRefreshing(refreshMillis: number, onError: (err: unknown) => void): void {
    this.timer = setInterval(() => this.reload().catch(onError), refreshMillis);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private replace(policies: readonly RetentionPolicyRecord[]): void {
    this.byKey = new Map(policies.map((p) => [policyKey(p.entityType, p.aspect), p]));
    this.rules = new Map();
  }

  all(): RetentionPolicyRecord[] {
    return [...this.byKey.values()];
  }

  /** The policy that governs (entityType, aspect), by DataHub's lookup order. */
  governing(entityType: string, aspect: string): RetentionPolicyRecord | undefined {
    return governingPolicy(this.byKey, entityType, aspect);
  }

  ruleFor(entityType: string, aspect: string): VersionRule | undefined {
    const key = policyKey(entityType, aspect);
    let rule = this.rules.get(key);
    if (rule === undefined) {
      rule = versionRuleOf(this.governing(entityType, aspect)) ?? null;
      this.rules.set(key, rule);
    }
    return rule ?? undefined;
  }
}
