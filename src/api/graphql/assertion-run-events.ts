import type { Json } from '../../storage/store.ts';
import { stringMapEntries } from './associations.ts';
import { entityTimeseries, type TimeseriesArgs } from './datasets.ts';
import { num, str } from './entity-fields.ts';
import type { EntitySource } from './entity-refs.ts';
import type { GraphqlModule, Resolver } from './schema.ts';

/**
 * Assertion.runEvents: the stored assertionRunEvent timeseries of an assertion, newest first, with the
 * counts DataHub's AssertionRunEventResolver adds. As there, the counts are over the events returned (the
 * limit applies first), and `status` is one more equality criterion on the event's status field.
 */

const typeDefs = /* GraphQL */ `
  enum AssertionRunStatus {
    COMPLETE
  }

  enum AssertionResultType {
    INIT
    SUCCESS
    FAILURE
    ERROR
  }

  enum AssertionResultSeverity {
    LOW
    MEDIUM
    HIGH
  }

  enum AssertionResultErrorType {
    SOURCE_CONNECTION_ERROR
    SOURCE_QUERY_FAILED
    INVALID_PARAMETERS
    INSUFFICIENT_DATA
    INVALID_SOURCE_TYPE
    UNSUPPORTED_PLATFORM
    CUSTOM_SQL_ERROR
    FIELD_ASSERTION_ERROR
    UNKNOWN_ERROR
  }

  type AssertionResultError {
    type: AssertionResultErrorType!
    properties: [StringMapEntry!]
  }

  type BatchSpec {
    nativeBatchId: String
    query: String
    limit: Int
    customProperties: [StringMapEntry!]
  }

  type AssertionResult {
    type: AssertionResultType!
    rowCount: Long
    missingCount: Long
    unexpectedCount: Long
    actualAggValue: Float
    externalUrl: String
    nativeResults: [StringMapEntry!]
    "Null, as in DataHub: its mapper does not copy the stored error."
    error: AssertionResultError
    severity: AssertionResultSeverity
  }

  type AssertionRunEvent {
    timestampMillis: Long!
    lastObservedMillis: Long
    assertionUrn: String!
    asserteeUrn: String!
    runId: String!
    status: AssertionRunStatus!
    batchSpec: BatchSpec
    partitionSpec: PartitionSpec
    runtimeContext: [StringMapEntry!]
    result: AssertionResult
  }

  type AssertionRunEventsResult {
    total: Int!
    failed: Int!
    succeeded: Int!
    errored: Int!
    runEvents: [AssertionRunEvent!]!
  }

  extend type Assertion {
    "Run events, newest first; without a time window the most recent ones."
    runEvents(status: AssertionRunStatus, startTimeMillis: Long, endTimeMillis: Long, filter: FilterInput, limit: Int): AssertionRunEventsResult
  }
`;

interface RunEventsArgs extends TimeseriesArgs {
  readonly status?: string | null;
}

const obj = (v: unknown): Json | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null);

function runEvent(event: Json, systemMetadata: Json | null) {
  const batch = obj(event.batchSpec);
  const partition = obj(event.partitionSpec);
  const result = obj(event.result);
  return {
    timestampMillis: num(event.timestampMillis) ?? 0,
    lastObservedMillis: num(systemMetadata?.lastObserved),
    assertionUrn: str(event.assertionUrn) ?? '',
    asserteeUrn: str(event.asserteeUrn) ?? '',
    runId: str(event.runId) ?? '',
    status: str(event.status) ?? 'COMPLETE',
    batchSpec: batch
      ? {
          nativeBatchId: str(batch.nativeBatchId),
          query: str(batch.query),
          limit: num(batch.limit),
          customProperties: stringMapEntries(batch.customProperties) ?? [],
        }
      : null,
    partitionSpec: partition ? { type: str(partition.type) ?? 'PARTITION', partition: str(partition.partition) } : null,
    runtimeContext: stringMapEntries(event.runtimeContext),
    result: result
      ? {
          type: str(result.type) ?? 'INIT',
          rowCount: num(result.rowCount),
          missingCount: num(result.missingCount),
          unexpectedCount: num(result.unexpectedCount),
          actualAggValue: num(result.actualAggValue),
          externalUrl: str(result.externalUrl),
          nativeResults: stringMapEntries(result.nativeResults),
          error: null,
          severity: str(result.severity),
        }
      : null,
  };
}

const runEventsField: Resolver = async (a: EntitySource, args: RunEventsArgs, ctx) => {
  const criteria = [...(args.status ? [{ field: 'status', values: [args.status] }] : []), ...(args.filter?.and ?? [])];
  const events = await entityTimeseries(ctx, a.urn, 'assertion', 'assertionRunEvent', {
    ...args,
    filter: criteria.length > 0 ? { and: criteria } : null,
  });
  const runEvents = events.map((e) => runEvent(e.event, obj(e.systemMetadata)));
  const completed = (type: string) => runEvents.filter((r) => r.status === 'COMPLETE' && r.result?.type === type).length;
  return { total: runEvents.length, failed: completed('FAILURE'), succeeded: completed('SUCCESS'), errored: completed('ERROR'), runEvents };
};

export const assertionRunEventsModule: GraphqlModule = {
  typeDefs,
  resolvers: { Assertion: { runEvents: runEventsField } },
};
