import type { ReadParts } from '../storage/store.ts';
import type { Policy } from './policy.ts';
import { loadPolicies } from './policy-reads.ts';

/**
 * The policies as last read by this process, used while the database's change counter for policy entities (read by
 * each request with its caller's role, in one round trip: `grantBasis`; a trigger raises it on every committed
 * change, whichever process made it) reads the same. A request thus pays no policy read of its own, and still sees
 * a change committed anywhere before it. The policies are shared by requests and never modified.
 */
export class PolicyCache {
  private cached?: { readonly changes: number; readonly policies: Promise<Policy[]> };

  constructor(private readonly ports: Pick<ReadParts, 'aspects'>) {}

  /** The policies as of a counter read before this call: a change committed while they load leaves them stale under it, and the next counter differs. */
  policiesAt(changes: number): Promise<Policy[]> {
    const hit = this.cached;
    if (hit && hit.changes === changes) return hit.policies;
    const policies = loadPolicies(this.ports);
    this.cached = { changes, policies };
    policies.catch(() => {
      if (this.cached?.policies === policies) this.cached = undefined;
    });
    return policies;
  }
}
