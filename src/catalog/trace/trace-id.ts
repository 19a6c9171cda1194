import { randomBytes } from 'node:crypto';
import type { Proposal } from '../proposals.ts';

/** The system-metadata property DataHub keeps a write's trace id in (TraceContext.TELEMETRY_TRACE_KEY). */
export const TELEMETRY_TRACE_KEY = 'telemetryTraceId';

/**
 * A trace id as DataHub's TraceIdGenerator makes one: 16 hex digits of the time in microseconds, then 16 random
 * ones, so a client (the Python SDK's TraceData.extract_timestamp) reads when the write was made from the id itself.
 */
export function newTraceId(nowMillis: number): string {
  return (BigInt(nowMillis) * 1000n).toString(16).padStart(16, '0') + randomBytes(8).toString('hex');
}

/** The W3C `traceparent` header DataHub answers a write with: version 00, the trace id, a span id, sampled. */
export const traceparentOf = (traceId: string): string => `00-${traceId}-${randomBytes(8).toString('hex')}-01`;

/** When the write was made, in milliseconds, from the id's first 16 hex digits; undefined for an id not made so. */
export function traceTimeMillis(traceId: string): number | undefined {
  if (!/^[0-9a-f]{16}/i.test(traceId)) return undefined;
  return Number(BigInt(`0x${traceId.slice(0, 16)}`) / 1000n);
}

/**
 * DataHub's TraceController.extractTraceId: a whole `traceparent` header gives its second part, 32 hex digits are
 * the id itself; anything else is no trace id.
 */
export function extractTraceId(input: string): string | undefined {
  const s = input.trim();
  if (s === '') return undefined;
  if (s.includes('-')) return s.split('-')[1] || undefined;
  return /^[0-9a-f]{32}$/i.test(s) ? s : undefined;
}

/** The proposals with the trace id in their system metadata's properties, where every version keeps it. */
export function withTraceId(proposals: readonly Proposal[], traceId: string): Proposal[] {
  return proposals.map((p) => {
    const sm = p.systemMetadata ?? {};
    const properties = typeof sm.properties === 'object' && sm.properties !== null && !Array.isArray(sm.properties) ? sm.properties : {};
    return { ...p, systemMetadata: { ...sm, properties: { ...properties, [TELEMETRY_TRACE_KEY]: traceId } } };
  });
}
