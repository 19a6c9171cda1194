import type Database from 'better-sqlite3';
import type { PortImpl } from '../compose-store.ts';
import type { ScheduleClaim, SchedulePort, ScheduledRun } from '../ports/schedules.ts';
import { bySqliteNames } from './statements.ts';
import { CLAIM_SQL, FINISH_SQL, LIST_SQL, PRUNE_SQL, toScheduledRun, type ScheduledRunRow } from '../schedule-sql.ts';

/** Scheduled runs on SQLite: one writer at a time, so the claim's upsert is decided by whoever writes first. */
export class SqliteSchedules implements PortImpl<SchedulePort> {
  constructor(private readonly sql: (text: string) => Database.Statement) {}

  claimScheduledRun(c: ScheduleClaim): boolean {
    const row = this.sql(bySqliteNames(CLAIM_SQL)).get({ job: c.job, due: c.dueAt, node: c.nodeId, now: c.now, until: c.now + c.leaseMillis }) as
      { node_id: string } | undefined;
    return row?.node_id === c.nodeId;
  }

  finishScheduledRun(r: Parameters<SchedulePort['finishScheduledRun']>[0]): void {
    this.sql(bySqliteNames(FINISH_SQL)).run({ job: r.job, due: r.dueAt, node: r.nodeId, now: r.now, outcome: r.outcome, error: r.error });
  }

  listScheduledRuns(filter: { readonly job?: string; readonly limit: number }): ScheduledRun[] {
    return (this.sql(bySqliteNames(LIST_SQL)).all({ job: filter.job ?? null, limit: filter.limit }) as ScheduledRunRow[]).map(toScheduledRun);
  }

  pruneScheduledRuns(before: number): number {
    return this.sql(bySqliteNames(PRUNE_SQL)).run({ before }).changes;
  }
}
