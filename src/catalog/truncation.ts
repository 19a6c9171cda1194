import { badRequest } from './errors.ts';
import { findEntitySpec, findTimeseriesAspectCaseInsensitive, timeseriesAspectPairs } from './registry/index.ts';
import type { TimeseriesIndexRef, TruncationStrategy } from '../storage/store.ts';

/** DataHub's answer when both force flags carry the same value; nothing runs. */
export const FLAG_CONFLICT_MESSAGE = 'please only set forceReindex OR forceDeleteByQuery flags';

const REBUILD_CLAUSE = 'Reindexing the aspect without the deleted records. ';
const DELETE_BY_QUERY_CLAUSE = 'Issuing a delete by query request. ';
const DRY_RUN_TAIL = 'This was a dry run. Run with dryRun = false to execute.';

/** DataHub's index name: `<entity>_<aspect>aspect_v1`, lower-cased. */
export const timeseriesIndexName = (index: TimeseriesIndexRef): string => `${index.entityType}_${index.aspect}aspect_v1`.toLowerCase();

const validPairs = () =>
  timeseriesAspectPairs()
    .map((p) => `(${p.entityType}, ${p.aspect})`)
    .join(', ');

/**
 * The index named by a request, matched case-insensitively as DataHub's
 * lower-cased index names are; the error names the bad field and lists the valid pairs.
 */
export function resolveTimeseriesIndex(entityType: string, aspect: string): TimeseriesIndexRef {
  const found = findTimeseriesAspectCaseInsensitive(entityType, aspect);
  if (found) return found;
  const details = { validIndices: timeseriesAspectPairs().map((p) => ({ entityType: p.entityType, aspect: p.aspect })) };
  const entity = findEntitySpec(entityType);
  const hasTimeseries = entity !== undefined && timeseriesAspectPairs().some((p) => p.entityType === entity.name);
  if (!hasTimeseries) {
    throw badRequest(
      `Parameter 'entityType': ${entity ? `entity type ${entity.name} has no timeseries aspects` : `'${entityType}' is not a known entity type`}. Valid (entityType, aspect) pairs: ${validPairs()}`,
      details,
    );
  }
  throw badRequest(
    `Parameter 'aspect': '${aspect}' is not a timeseries aspect of entity type ${entity!.name}. Valid (entityType, aspect) pairs: ${validPairs()}`,
    details,
  );
}

/**
 * DataHub's flag rule, except for the default: Almanac always rebuilds (drops
 * whole day partitions) unless delete-by-query is forced, because dropping is
 * the cheaper path at any fraction. Returns 'conflict' when both flags agree.
 */
export function truncationStrategy(flags: { forceDeleteByQuery?: boolean; forceReindex?: boolean }): TruncationStrategy | 'conflict' {
  if (flags.forceDeleteByQuery !== undefined && flags.forceDeleteByQuery === flags.forceReindex) return 'conflict';
  return flags.forceDeleteByQuery === true ? 'delete_by_query' : 'rebuild';
}

/**
 * A non-negative number with two decimals as Java's `%.2f` prints it: the
 * shortest decimal form of the double, rounded half up (1.005 gives 1.01).
 */
export function javaTwoDecimals(x: number): string {
  const [mantissa, exponent] = x.toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  // x * 100 = digits * 10^shift
  const shift = Number(exponent) - (digits.length - 1) + 2;
  let hundredths: bigint;
  if (shift >= 0) {
    hundredths = BigInt(digits) * 10n ** BigInt(shift);
  } else {
    const keep = digits.length + shift;
    const kept = keep > 0 ? BigInt(digits.slice(0, keep)) : 0n;
    const next = keep >= 0 && keep < digits.length ? digits[keep]! : '0';
    hundredths = kept + (next >= '5' ? 1n : 0n);
  }
  const text = hundredths.toString().padStart(3, '0');
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
}

/**
 * The dry-run summary, byte-compatible with DataHub's: its garbage collector
 * reads the first two integers, so the wording is an interface. An empty index
 * reports 0.00% where DataHub prints NaN%.
 */
export function dryRunMessage(counts: { matching: number; total: number }, strategy: TruncationStrategy): string {
  const pct = counts.total === 0 ? '0.00' : javaTwoDecimals((counts.matching / counts.total) * 100);
  const clause = strategy === 'rebuild' ? REBUILD_CLAUSE : DELETE_BY_QUERY_CLAUSE;
  return `Delete ${counts.matching} out of ${counts.total} rows (${pct}%). ${clause}${DRY_RUN_TAIL}`;
}
