import type { ChangeEventRules, TaskRecord } from '../../storage/store.ts';
import { changeLogEntries } from './change-log.ts';

/** Task kinds whose end is an event, and the name each takes in its run's urn. */
const RUN_KINDS: ReadonlyMap<string, string> = new Map([
  ['truncateTimeseriesAspect', 'truncation'],
  ['retention', 'retention'],
]);

/**
 * Where a change becomes an event: a deprecation's latest value created or changed, and a truncation or retention
 * task leaving `running`. `openStore` gives these rules to the adapter, which applies them to its writes' outcomes in
 * the writes' transactions (storage/ports/change-events.ts); catalog/events/entity-change-event.ts turns the stored
 * event into DataHub's EntityChangeEvent_v1.
 */
export const changeEventRules: ChangeEventRules = {
  aspects: new Map([['deprecation', { category: 'DEPRECATION', source: 'deprecation' }]]),
  changeLog: changeLogEntries,
  taskEnded(task: TaskRecord) {
    const name = RUN_KINDS.get(task.kind);
    if (name === undefined) return undefined;
    return {
      entityType: 'dataProcessInstance',
      entityUrn: `urn:li:dataProcessInstance:almanac-${name}-${task.number}`,
      category: 'RUN',
      source: 'task',
      before: null,
      after: {
        kind: task.kind,
        number: task.number,
        state: task.state,
        params: task.params,
        progress: task.progress,
        error: task.error,
        startedAt: task.startedAt,
      },
      actor: task.createdBy,
      createdAt: task.endedAt ?? task.heartbeatAt,
    };
  },
};
