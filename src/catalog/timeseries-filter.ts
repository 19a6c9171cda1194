import { badRequest } from './errors.ts';
import type { TimeseriesEvent } from '../storage/store.ts';

type Test = (event: TimeseriesEvent) => boolean;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The event's value of a timeseries index field, as DataHub names them (`partitionSpec.partition`, `runId`, ...). */
function fieldValue(e: TimeseriesEvent, field: string): unknown {
  const name = field.endsWith('.keyword') ? field.slice(0, -8) : field;
  if (name === 'urn') return e.urn;
  if (name === 'timestampMillis' || name === '@timestamp') return e.timestampMillis;
  if (name === 'runId') return e.systemMetadata?.runId;
  let cur: unknown = e.event;
  for (const part of name.split('.')) cur = isObj(cur) ? cur[part] : undefined;
  return cur;
}

const asText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
const compare = (a: unknown, b: string): number => {
  const n = Number(b);
  return typeof a === 'number' && Number.isFinite(n) ? a - n : asText(a).localeCompare(b);
};

const CONDITIONS: Readonly<Record<string, (v: unknown, values: readonly string[]) => boolean>> = {
  EQUAL: (v, vs) => v !== undefined && vs.includes(asText(v)),
  IN: (v, vs) => v !== undefined && vs.includes(asText(v)),
  CONTAIN: (v, vs) => v !== undefined && vs.some((x) => asText(v).includes(x)),
  START_WITH: (v, vs) => v !== undefined && vs.some((x) => asText(v).startsWith(x)),
  END_WITH: (v, vs) => v !== undefined && vs.some((x) => asText(v).endsWith(x)),
  GREATER_THAN: (v, vs) => v !== undefined && vs.some((x) => compare(v, x) > 0),
  GREATER_THAN_OR_EQUAL_TO: (v, vs) => v !== undefined && vs.some((x) => compare(v, x) >= 0),
  LESS_THAN: (v, vs) => v !== undefined && vs.some((x) => compare(v, x) < 0),
  LESS_THAN_OR_EQUAL_TO: (v, vs) => v !== undefined && vs.some((x) => compare(v, x) <= 0),
  EXISTS: (v) => v !== undefined && v !== null,
  IS_NULL: (v) => v === undefined || v === null,
};

function criterion(raw: unknown, where: string): Test {
  if (!isObj(raw) || typeof raw.field !== 'string') throw badRequest(`Parameter '${where}' must be {"field", "values", "condition"}`);
  const condition = raw.condition ?? 'EQUAL';
  const test = typeof condition === 'string' ? CONDITIONS[condition] : undefined;
  if (!test)
    throw badRequest(
      `Parameter '${where}.condition' ${JSON.stringify(condition)} is not supported for timeseries reads; use one of ${Object.keys(CONDITIONS).join(', ')}`,
    );
  const values = raw.values ?? (raw.value !== undefined ? [raw.value] : []);
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string'))
    throw badRequest(`Parameter '${where}.values' must be an array of strings`);
  const field = raw.field;
  const negated = raw.negated === true;
  return (e) => test(fieldValue(e, field), values) !== negated;
}

/**
 * Compiles DataHub's Filter (`{"or": [{"and": [criteria]}]}`, or the older
 * `{"criteria": [...]}`) into a test on timeseries events; anything it cannot
 * apply is a 400 naming it, never silently ignored.
 */
export function compileTimeseriesFilter(raw: unknown): Test | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isObj(raw)) throw badRequest("Parameter 'filter' must be an object");
  const extra = Object.keys(raw).find((k) => k !== 'or' && k !== 'criteria');
  if (extra) throw badRequest(`Parameter 'filter.${extra}' is not supported; use 'or' (of {"and": [...]}) or 'criteria'`);
  const groups: Test[][] = [];
  if (raw.criteria !== undefined) {
    if (!Array.isArray(raw.criteria)) throw badRequest("Parameter 'filter.criteria' must be an array");
    groups.push(raw.criteria.map((c, i) => criterion(c, `filter.criteria[${i}]`)));
  }
  if (raw.or !== undefined) {
    if (!Array.isArray(raw.or)) throw badRequest("Parameter 'filter.or' must be an array");
    raw.or.forEach((g, i) => {
      if (!isObj(g) || !Array.isArray(g.and)) throw badRequest(`Parameter 'filter.or[${i}]' must be {"and": [...]}`);
      groups.push(g.and.map((c, j) => criterion(c, `filter.or[${i}].and[${j}]`)));
    });
  }
  if (groups.length === 0) return undefined;
  return (e) => groups.some((all) => all.every((t) => t(e)));
}
