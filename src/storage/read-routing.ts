import { methodKinds } from './compose-store.ts';
import { currentReadScope, type ReadScope } from './read-scope.ts';
import type { Parts } from './store.ts';

/** A read replica as the router hands it out: its name (for metrics) and the parts that read from it. */
export interface ReplicaHandle {
  readonly name: string;
  readonly parts: Parts;
}

/** Why a read a replica could have served went to the primary (or to another replica). */
export type FallbackReason = 'down' | 'paused' | 'lagging' | 'behind' | 'no_position' | 'failed';

/** What the router has done, for /metrics. */
export interface ReadRoutingStats {
  /** Reads served, by handle: `primary`, `replica1`, ... */
  readonly reads: ReadonlyMap<string, number>;
  /** Reads a replica did not serve, by replica and reason. */
  readonly fallbacks: ReadonlyArray<{ readonly replica: string; readonly reason: FallbackReason; readonly count: number }>;
  /** Each replica's state at its last check: reachable, replay paused, and how far behind the primary. */
  readonly replicas: ReadonlyArray<{ readonly name: string; readonly up: boolean; readonly paused: boolean; readonly lagMillis: number }>;
}

/** Picks, per read, a replica that has replayed everything committed before the read's request arrived. */
export interface ReadRouter {
  /** A new request's scope: its reads will need the primary's position as of after this moment. */
  newScope(): ReadScope;
  /** The replica to read from in `scope`, or undefined: the primary answers (outside a request, after a write). */
  choose(scope: ReadScope | undefined): Promise<ReplicaHandle | undefined>;
  /** A replica's read failed: true when it was the replica's fault (gone, cancelled by replay) and the primary should answer. */
  readFailed(replica: ReplicaHandle, error: unknown): boolean;
  stats(): ReadRoutingStats;
  close(): Promise<void>;
}

/**
 * The parts services are built from when replicas may answer: the reads of `replicated` parts go where the router
 * says (a read a replica fails for its own reasons is answered by the primary), every write goes to the primary and
 * marks its request as having written, and everything else is the primary's part.
 */
export function routeToReplicas(primary: Parts, router: ReadRouter, replicated: ReadonlySet<keyof Parts>): Parts {
  const routed: Record<string, unknown> = {};
  for (const [capability, table] of methodKinds()) {
    const own = primary[capability] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const part: Record<string, unknown> = {};
    for (const [name, kind] of Object.entries(table)) {
      const method = own[name]!;
      if (kind === 'write') {
        part[name] = (...args: unknown[]) => {
          const scope = currentReadScope();
          if (scope) scope.wrote = true;
          return method(...args);
        };
      } else if (replicated.has(capability)) {
        part[name] = async (...args: unknown[]) => {
          const replica = await router.choose(currentReadScope());
          if (!replica) return method(...args);
          try {
            return await (replica.parts[capability] as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[name]!(...args);
          } catch (e) {
            if (!router.readFailed(replica, e)) throw e;
            return method(...args);
          }
        };
      } else {
        part[name] = method;
      }
    }
    routed[capability] = part;
  }
  return routed as unknown as Parts;
}
