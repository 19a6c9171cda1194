import type { Logger } from 'pino';
import type { RetentionPolicies } from '../../catalog/retention/retention-policies.ts';
import type { RetentionRunRecord } from '../../catalog/retention/retention-record.ts';
import type { RetentionRunner } from '../../catalog/retention/retention-service.ts';
import type { Parts, TaskRef } from '../../storage/store.ts';
import type { TaskRunner } from '../task-runner.ts';
import type { TimeseriesOperations } from '../truncation/timeseries-operations.ts';
import { waitForTaskEnd } from '../wait-for-task.ts';
import { RetentionRunTask } from './retention-run-task.ts';

/** Retention runs as background tasks of this process: what RetentionService starts, the task runner carries out. */
export class TaskRetentionRunner implements RetentionRunner {
  constructor(
    private readonly ports: Pick<Parts, 'retention' | 'tasks' | 'timeseries'>,
    private readonly runner: TaskRunner,
    private readonly policies: RetentionPolicies,
    private readonly operations: TimeseriesOperations,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {}

  owner(): { nodeId: string; ownerPid: number; ownerHost: string } {
    return this.runner.owner();
  }

  launch(record: RetentionRunRecord): void {
    this.runner.launch(new RetentionRunTask(this.ports, record, this.policies, this.operations, this.logger, this.clock));
  }

  whenEnded(ref: TaskRef): Promise<void> | undefined {
    return this.runner.whenEnded(ref);
  }

  waitForEnd(
    ref: TaskRef,
    read: (ref: TaskRef) => Promise<RetentionRunRecord | undefined>,
    maxMillis: number,
  ): Promise<RetentionRunRecord | undefined> {
    return waitForTaskEnd(this.runner, read, ref, maxMillis, this.clock);
  }
}
