import { badRequest } from '../../catalog/errors.ts';
import type { Json } from '../../storage/store.ts';
import { objects } from './associations.ts';
import { num, str } from './entity-fields.ts';
import { entityRef, type EntitySource } from './entity-refs.ts';
import type { GraphqlContext, GraphqlModule, Resolver } from './schema.ts';

/**
 * Usage from the usage timeseries aspects: Dataset.usageStats and
 * statsSummary (datasetUsageStatistics), Dashboard and Chart statsSummary
 * (dashboardUsageStatistics, chartUsageStatistics), as DataHub's resolvers
 * sum them: the last 30 days, top users by count then urn, at most 5.
 */
const typeDefs = /* GraphQL */ `
  enum WindowDuration {
    DAY
    WEEK
    MONTH
    YEAR
  }

  enum TimeRange {
    DAY
    WEEK
    MONTH
    QUARTER
    HALF_YEAR
    YEAR
    ALL
  }

  type UserUsageCounts {
    user: CorpUser
    count: Int
    userEmail: String
  }

  type FieldUsageCounts {
    fieldName: String
    count: Int
  }

  type UsageAggregationMetrics {
    uniqueUserCount: Int
    users: [UserUsageCounts]
    totalSqlQueries: Int
    topSqlQueries: [String]
    fields: [FieldUsageCounts]
  }

  type UsageAggregation {
    bucket: Long
    duration: WindowDuration
    resource: String
    metrics: UsageAggregationMetrics
  }

  type UsageQueryResultAggregations {
    uniqueUserCount: Int
    users: [UserUsageCounts]
    fields: [FieldUsageCounts]
    totalSqlQueries: Int
  }

  type UsageQueryResult {
    buckets: [UsageAggregation]
    aggregations: UsageQueryResultAggregations
  }

  type DatasetStatsSummary {
    queryCountLast30Days: Int
    uniqueUserCountLast30Days: Int
    topUsersLast30Days: [CorpUser!]
  }

  type DashboardStatsSummary {
    viewCount: Int
    viewCountLast30Days: Int
    uniqueUserCountLast30Days: Int
    topUsersLast30Days: [CorpUser!]
  }

  type ChartStatsSummary {
    viewCount: Int
    viewCountLast30Days: Int
    uniqueUserCountLast30Days: Int
    topUsersLast30Days: [CorpUser!]
  }

  extend type Dataset {
    "Usage in the range (the last month by default), from datasetUsageStatistics."
    usageStats(resource: String, range: TimeRange, startTimeMillis: Long, timeZone: String): UsageQueryResult
    "Queries and users of the last 30 days."
    statsSummary: DatasetStatsSummary
  }

  extend type Dashboard {
    "The latest view count and the users of the last 30 days."
    statsSummary: DashboardStatsSummary
  }

  extend type Chart {
    "The latest view count and the users of the last 30 days."
    statsSummary: ChartStatsSummary
  }
`;

const DAY = 24 * 60 * 60 * 1000;
const RANGE_DAYS: Readonly<Record<string, number | null>> = { DAY: 1, WEEK: 7, MONTH: 30, QUARTER: 90, HALF_YEAR: 182, YEAR: 365, ALL: null };
const MAX_TOP_USERS = 5;
/** Usage events one summary reads at most (daily buckets over a year are 366). */
const MAX_EVENTS = 10_000;

async function events(ctx: GraphqlContext, urn: string, entityType: string, aspect: string, startTimeMillis?: number, endTimeMillis?: number) {
  const found = await ctx.app.catalog.timeseriesValues({ urn, entityType, aspect, startTimeMillis, endTimeMillis, limit: MAX_EVENTS });
  return found.map((e) => e.event);
}

/** Per user, the counts summed; ordered by count, then urn, as DataHub's loaders do. */
function userTotals(all: readonly Json[], countField: string): [string, number][] {
  const totals = new Map<string, number>();
  for (const e of all) {
    for (const u of objects(e.userCounts)) {
      const user = str(u.user);
      if (user) totals.set(user, (totals.get(user) ?? 0) + (num(u[countField]) ?? 0));
    }
  }
  return [...totals].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

const topUsers = (ctx: GraphqlContext, totals: readonly [string, number][]) =>
  Promise.all(totals.slice(0, MAX_TOP_USERS).map(([urn]) => entityRef(ctx, urn)));

const bucketed = (e: Json) => typeof e.eventGranularity === 'object' && e.eventGranularity !== null;

async function datasetUsage(ctx: GraphqlContext, urn: string, startTimeMillis: number | undefined) {
  const all = (await events(ctx, urn, 'dataset', 'datasetUsageStatistics', startTimeMillis)).filter(bucketed);
  const users = userTotals(all, 'count');
  const fields = new Map<string, number>();
  for (const e of all)
    for (const f of objects(e.fieldCounts)) fields.set(String(f.fieldPath), (fields.get(String(f.fieldPath)) ?? 0) + (num(f.count) ?? 0));
  return { all, users, fields, totalSqlQueries: all.reduce((n, e) => n + (num(e.totalSqlQueries) ?? 0), 0) };
}

const usageStats: Resolver = async (e: EntitySource, args: { range?: string | null; startTimeMillis?: number | null }, ctx) => {
  let start: number | undefined;
  if (args.startTimeMillis != null) start = args.startTimeMillis;
  else {
    const days = RANGE_DAYS[args.range ?? 'MONTH'];
    if (days === undefined) throw badRequest(`range: unknown time range ${args.range}`);
    start = days === null ? undefined : Date.now() - days * DAY;
  }
  const u = await datasetUsage(ctx, e.urn, start);
  const usersOf = (pairs: readonly [string, number][]) =>
    Promise.all(pairs.map(async ([user, count]) => ({ user: await entityRef(ctx, user), count, userEmail: null })));
  return {
    buckets: await Promise.all(
      u.all.map(async (ev) => ({
        bucket: num(ev.timestampMillis),
        duration: str((ev.eventGranularity as Json).unit) ?? 'DAY',
        resource: e.urn,
        metrics: {
          uniqueUserCount: num(ev.uniqueUserCount),
          users: await usersOf(userTotals([ev], 'count')),
          totalSqlQueries: num(ev.totalSqlQueries),
          topSqlQueries: Array.isArray(ev.topSqlQueries) ? ev.topSqlQueries : null,
          fields: objects(ev.fieldCounts).map((f) => ({ fieldName: str(f.fieldPath), count: num(f.count) })),
        },
      })),
    ),
    aggregations: {
      uniqueUserCount: u.users.length,
      users: await usersOf(u.users),
      fields: [...u.fields].map(([fieldName, count]) => ({ fieldName, count })),
      totalSqlQueries: u.totalSqlQueries,
    },
  };
};

/** Dashboards and charts: the latest absolute (unbucketed) event's views, the bucketed events' users. */
const viewSummary =
  (entityType: string, aspect: string): Resolver =>
  async (e: EntitySource, _a, ctx) => {
    const all = await events(ctx, e.urn, entityType, aspect);
    const latest = all.find((ev) => !bucketed(ev));
    const since = Date.now() - 30 * DAY;
    const buckets = all.filter((ev) => bucketed(ev) && (num(ev.timestampMillis) ?? 0) >= since);
    const users = userTotals(buckets, 'usageCount');
    return {
      viewCount: latest ? num(latest.viewsCount) : null,
      viewCountLast30Days: buckets.reduce((n, ev) => n + (num(ev.viewsCount) ?? 0), 0),
      uniqueUserCountLast30Days: users.length,
      topUsersLast30Days: await topUsers(ctx, users),
    };
  };

export const usageStatsModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Dataset: {
      usageStats,
      statsSummary: async (e: EntitySource, _a, ctx) => {
        const u = await datasetUsage(ctx, e.urn, Date.now() - 30 * DAY);
        return {
          queryCountLast30Days: u.totalSqlQueries,
          uniqueUserCountLast30Days: u.users.length,
          topUsersLast30Days: await topUsers(ctx, u.users),
        };
      },
    },
    Dashboard: { statsSummary: viewSummary('dashboard', 'dashboardUsageStatistics') },
    Chart: { statsSummary: viewSummary('chart', 'chartUsageStatistics') },
  },
};
