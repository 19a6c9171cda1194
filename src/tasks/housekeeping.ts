import { FAILURE_MEMORY_MILLIS } from '../auth/login.ts';
import type { Parts } from '../storage/store.ts';
import type { ScheduledJob } from './scheduler.ts';

/** How long the record of a finished scheduled run is kept. */
export const SCHEDULED_RUN_MEMORY_MILLIS = 7 * 24 * 60 * 60 * 1000;

/**
 * The server's periodic upkeep, run once per interval across all processes: expired access tokens are deleted,
 * sign-in failures older than their memory forgotten, old scheduled-run records pruned, and task records that ended
 * longer ago than ALMANAC_TASK_HISTORY_DAYS deleted, audit events older than ALMANAC_AUDIT_RETENTION_DAYS too, and change log entries older than ALMANAC_EVENT_RETENTION_DAYS. (Each is also done
 * lazily where it matters; this keeps the tables from growing on a server nobody signs in to.)
 */
export function housekeepingJob(
  {
    identity,
    userAccess,
    schedules,
    tasks,
    changeEvents,
    audit,
  }: Pick<Parts, 'identity' | 'userAccess' | 'schedules' | 'tasks' | 'changeEvents' | 'audit'>,
  intervalMillis: number,
  taskHistoryMillis: number,
  auditRetentionMillis: number,
  eventRetentionMillis: number,
  clock: () => number = Date.now,
): ScheduledJob {
  return {
    name: 'housekeeping',
    intervalMillis,
    run: async () => {
      const now = clock();
      await identity.deleteExpiredAccessTokens(now);
      await userAccess.pruneSignInFailures(now - FAILURE_MEMORY_MILLIS);
      await schedules.pruneScheduledRuns(now - SCHEDULED_RUN_MEMORY_MILLIS);
      await tasks.pruneTasks(now - taskHistoryMillis);
      await audit.pruneAuditEvents(now - auditRetentionMillis);
      await changeEvents.pruneEventLog(now - eventRetentionMillis);
    },
  };
}
