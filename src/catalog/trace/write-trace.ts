import type { StoredAspect } from '../../storage/store.ts';
import { TELEMETRY_TRACE_KEY, traceTimeMillis } from './trace-id.ts';

/** DataHub's TraceWriteStatus. */
export type TraceWriteStatus = 'ERROR' | 'PENDING' | 'ACTIVE_STATE' | 'HISTORIC_STATE' | 'NO_OP' | 'UNKNOWN' | 'TRACE_NOT_IMPLEMENTED';

export interface TraceStorageStatus {
  readonly writeStatus: TraceWriteStatus;
  readonly writeMessage?: string;
  readonly writeExceptions?: readonly { readonly message: string }[];
}

/** DataHub's TraceStatus of one aspect: whether the write succeeded, in primary storage and in the search index. */
export interface TraceStatus {
  readonly success: boolean;
  readonly primaryStorage: TraceStorageStatus;
  readonly searchStorage: TraceStorageStatus;
}

/** The newest versions of an aspect a trace looks through (history is newest first). */
export const TRACE_VERSIONS = 100;

const both = (writeStatus: TraceWriteStatus): TraceStatus => ({ success: true, primaryStorage: { writeStatus }, searchStorage: { writeStatus } });

const traceOf = (a: StoredAspect): unknown => {
  const props = a.systemMetadata?.properties;
  return typeof props === 'object' && props !== null ? (props as Record<string, unknown>)[TELEMETRY_TRACE_KEY] : undefined;
};

/**
 * Where a traced write of a versioned aspect stands. Almanac writes synchronously and searches the primary store, so
 * primary storage and search always agree: ACTIVE_STATE when the latest version carries the trace id, NO_OP when it
 * carries it but was written before the traced request (the write found the same value), HISTORIC_STATE when an
 * older version carries it, else the refusal recorded for it, else UNKNOWN.
 */
export function versionedTraceStatus(traceId: string, history: readonly StoredAspect[], refusal: string | undefined): TraceStatus {
  const id = traceId.toLowerCase();
  const index = history.findIndex((a) => String(traceOf(a)).toLowerCase() === id);
  if (index === 0) {
    const tracedAt = traceTimeMillis(id);
    return tracedAt !== undefined && history[0]!.createdOn < tracedAt ? both('NO_OP') : both('ACTIVE_STATE');
  }
  if (index > 0) return both('HISTORIC_STATE');
  if (refusal !== undefined) return refused(refusal);
  return {
    success: false,
    primaryStorage: {
      writeStatus: 'UNKNOWN',
      writeMessage: `No version of the aspect among the newest ${TRACE_VERSIONS} was written with this trace id`,
    },
    searchStorage: { writeStatus: 'UNKNOWN', writeMessage: 'Primary storage holds no write with this trace id.' },
  };
}

/** A write refused before anything was stored, with DataHub's search-storage message for it. */
export const refused = (message: string): TraceStatus => ({
  success: false,
  primaryStorage: { writeStatus: 'ERROR', writeExceptions: [{ message }] },
  searchStorage: { writeStatus: 'ERROR', writeMessage: 'Primary storage write failed.' },
});

/** DataHub does not trace timeseries writes: its answer for them, which Almanac gives too. */
export const TIMESERIES_TRACE: TraceStatus = {
  success: true,
  primaryStorage: { writeStatus: 'NO_OP' },
  searchStorage: { writeStatus: 'TRACE_NOT_IMPLEMENTED' },
};

/** Without `detailed`, DataHub leaves out the exceptions. */
export function summarized(status: TraceStatus): TraceStatus {
  const strip = ({ writeExceptions: _e, ...rest }: TraceStorageStatus): TraceStorageStatus => rest;
  return { ...status, primaryStorage: strip(status.primaryStorage), searchStorage: strip(status.searchStorage) };
}
