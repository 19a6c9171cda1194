import type { ScheduledJob } from '../scheduler.ts';
import { RETENTION_ACTOR } from '../../catalog/retention/retention-record.ts';
import type { RetentionService } from '../../catalog/retention/retention-service.ts';

export const DAY_MILLIS = 24 * 60 * 60 * 1000;

/** The daily retention run at `offsetMillis` after midnight UTC (ALMANAC_RETENTION_SCHEDULE), once across processes. */
export function retentionJob(service: Pick<RetentionService, 'runAndWait'>, offsetMillis: number): ScheduledJob {
  return {
    name: 'retention',
    intervalMillis: DAY_MILLIS,
    offsetMillis,
    // The run itself is short (it starts truncation tasks and walks earlier versions); a claimant dead for an hour is gone.
    leaseMillis: 60 * 60_000,
    run: async () => {
      await service.runAndWait({ trigger: 'schedule' }, RETENTION_ACTOR);
    },
  };
}
