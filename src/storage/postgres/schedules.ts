import type pg from 'pg';
import type { PortImpl } from '../compose-store.ts';
import type { ScheduleClaim, SchedulePort, ScheduledRun } from '../ports/schedules.ts';
import { runNamed } from './named-query.ts';
import { CLAIM_SQL, FINISH_SQL, LIST_SQL, PRUNE_SQL, toScheduledRun, type ScheduledRunRow } from '../schedule-sql.ts';

/**
 * Scheduled runs on PostgreSQL: the claim is one INSERT ... ON CONFLICT, so of several processes claiming the same
 * occurrence at once exactly one gets its row back.
 */
export class PostgresSchedules implements PortImpl<SchedulePort> {
  constructor(private readonly pool: pg.Pool) {}

  async claimScheduledRun(c: ScheduleClaim): Promise<boolean> {
    const r = await runNamed<{ node_id: string }>(this.pool, CLAIM_SQL, {
      job: c.job,
      due: c.dueAt,
      node: c.nodeId,
      now: c.now,
      until: c.now + c.leaseMillis,
    });
    return r.rows[0]?.node_id === c.nodeId;
  }

  async finishScheduledRun(r: Parameters<SchedulePort['finishScheduledRun']>[0]): Promise<void> {
    await runNamed(this.pool, FINISH_SQL, { job: r.job, due: r.dueAt, node: r.nodeId, now: r.now, outcome: r.outcome, error: r.error });
  }

  async listScheduledRuns(filter: { readonly job?: string; readonly limit: number }): Promise<ScheduledRun[]> {
    const r = await runNamed<ScheduledRunRow>(this.pool, LIST_SQL.replace(':job IS NULL', ':job::text IS NULL'), {
      job: filter.job ?? null,
      limit: filter.limit,
    });
    return r.rows.map(toScheduledRun);
  }

  async pruneScheduledRuns(before: number): Promise<number> {
    return (await runNamed(this.pool, PRUNE_SQL, { before })).rowCount ?? 0;
  }
}
