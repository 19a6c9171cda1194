import crypto from 'node:crypto';

const DEFAULT_PARTITION_SPEC = { type: 'FULL_TABLE', partition: 'FULL_TABLE_SNAPSHOT' };

/**
 * The identity of a timeseries event, as DataHub derives its document id: the
 * same (timestamp, granularity, urn, messageId, partitionSpec) overwrites
 * instead of adding a row. A missing partitionSpec counts as DataHub's default.
 */
export function timeseriesDocId(urn: string, event: Record<string, unknown>): string {
  const identity = JSON.stringify([
    event.timestampMillis,
    event.eventGranularity ?? null,
    urn,
    event.messageId ?? null,
    event.partitionSpec ?? DEFAULT_PARTITION_SPEC,
  ]);
  return crypto.createHash('sha256').update(identity).digest('base64url');
}
