import { z } from 'zod';
import { badRequest } from '../errors.ts';
import { float, int, long, stringMap, urn } from './common.ts';

/**
 * The timeseries aspects Almanac interprets. Each includes
 * `timeseries/TimeseriesAspectBase.pdl`; every other timeseries aspect of the
 * registry is checked against that base alone (`timeseriesAspectBase`).
 */

export const CALENDAR_INTERVALS = ['SECOND', 'MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR'] as const;

/** timeseries/TimeWindowSize.pdl */
const timeWindowSize = z.looseObject({ unit: z.enum(CALENDAR_INTERVALS), multiple: int().default(1) });

/**
 * timeseries/PartitionSpec.pdl. `partition` is required in the PDL, yet DataHub's
 * transformer explicitly handles it being null (see checkPartitionSpec), so
 * null/absent pass the schema and get DataHub's own error message instead.
 */
const partitionSpec = z.looseObject({
  type: z.enum(['FULL_TABLE', 'QUERY', 'PARTITION']).optional(),
  partition: z.string().nullable().optional(),
  timePartition: z.looseObject({ startTimeMillis: long(), length: timeWindowSize }).nullable().optional(),
});

const timeseriesBase = {
  timestampMillis: long(),
  eventGranularity: timeWindowSize.optional(),
  partitionSpec: partitionSpec.optional(),
  messageId: z.string().optional(),
};

/** dataset/DatasetFieldProfile.pdl: the statistics are strings on the wire. */
const datasetFieldProfile = z.looseObject({
  fieldPath: z.string(),
  uniqueCount: long().optional(),
  uniqueProportion: float().optional(),
  nullCount: long().optional(),
  nullProportion: float().optional(),
  min: z.string().optional(),
  max: z.string().optional(),
  mean: z.string().optional(),
  median: z.string().optional(),
  stdev: z.string().optional(),
  quantiles: z.array(z.looseObject({ quantile: z.string(), value: z.string() })).optional(),
  distinctValueFrequencies: z.array(z.looseObject({ value: z.string(), frequency: long() })).optional(),
  histogram: z.looseObject({ boundaries: z.array(z.string()), heights: z.array(float()) }).optional(),
  sampleValues: z.array(z.string()).optional(),
});

/** dataset/DatasetProfile.pdl */
export const datasetProfile = z.looseObject({
  ...timeseriesBase,
  rowCount: long().optional(),
  columnCount: long().optional(),
  fieldProfiles: z.array(datasetFieldProfile).optional(),
  sizeInBytes: long().optional(),
});

/**
 * dataset/DatasetUsageStatistics.pdl. Note DatasetFieldUsageCounts names its
 * key `fieldPath`, although the collection annotation says `fieldName`.
 */
export const datasetUsageStatistics = z.looseObject({
  ...timeseriesBase,
  uniqueUserCount: int().optional(),
  totalSqlQueries: int().optional(),
  topSqlQueries: z.array(z.string()).optional(),
  userCounts: z.array(z.looseObject({ user: urn(), count: int(), userEmail: z.string().optional() })).optional(),
  fieldCounts: z.array(z.looseObject({ fieldPath: z.string(), count: int() })).optional(),
});

export const OPERATION_TYPES = ['INSERT', 'UPDATE', 'DELETE', 'CREATE', 'ALTER', 'DROP', 'CUSTOM', 'UNKNOWN'] as const;

/** common/Operation.pdl */
export const operation = z.looseObject({
  ...timeseriesBase,
  actor: urn().optional(),
  operationType: z.enum(OPERATION_TYPES),
  customOperationType: z.string().optional(),
  numAffectedRows: long().optional(),
  affectedDatasets: z.array(urn()).optional(),
  // OperationSourceType has grown over versions; kept open.
  sourceType: z.string().optional(),
  customProperties: stringMap().optional(),
  lastUpdatedTimestamp: long(),
  queries: z.array(urn()).optional(),
});

/** chart/ChartUsageStatistics.pdl */
export const chartUsageStatistics = z.looseObject({
  ...timeseriesBase,
  viewsCount: int().optional(),
  uniqueUserCount: int().optional(),
  userCounts: z.array(z.looseObject({ user: urn(), viewsCount: int().optional() })).optional(),
});

/** dashboard/DashboardUsageStatistics.pdl */
export const dashboardUsageStatistics = z.looseObject({
  ...timeseriesBase,
  viewsCount: int().optional(),
  executionsCount: int().optional(),
  uniqueUserCount: int().optional(),
  userCounts: z
    .array(
      z.looseObject({
        user: urn(),
        viewsCount: int().optional(),
        executionsCount: int().optional(),
        usageCount: int().optional(),
        userEmail: z.string().optional(),
      }),
    )
    .optional(),
  favoritesCount: int().optional(),
  lastViewedAt: long().optional(),
});

/**
 * TimeseriesAspectBase alone: what Almanac reads from a timeseries aspect it does
 * not otherwise interpret (the timestamp, and the granularity, messageId and
 * partitionSpec of its document id).
 */
export const timeseriesAspectBase = z.looseObject(timeseriesBase);

export const TIMESTAMP_MISSING = 'Input timeseries aspect does not contain a timestampMillis field';

/**
 * DataHub's TimeseriesAspectTransformer rule: exactly one of `partition` and
 * `timePartition` must be set when a partitionSpec is present. It throws
 * IllegalArgumentException there, hence a 400 rather than a 422.
 */
export function checkPartitionSpec(value: Record<string, unknown>): void {
  const spec = value['partitionSpec'] as { partition?: unknown; timePartition?: unknown } | undefined;
  if (spec === undefined) return;
  const hasPartition = spec.partition !== undefined && spec.partition !== null;
  const hasTimePartition = spec.timePartition !== undefined && spec.timePartition !== null;
  if (hasPartition && hasTimePartition) {
    throw badRequest('Both partition and timePartition cannot be specified in partitionSpec!');
  }
  if (!hasPartition && !hasTimePartition) {
    throw badRequest('Both partition and timePartition cannot be null in partitionSpec.');
  }
}
