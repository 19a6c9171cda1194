import type { ChangeEventRules, TaskRecord } from '../../storage/store.ts';
import { changeLogEntries, entryEvents, platformEntry, timeseriesLogEntries, webhookEntries } from './change-log.ts';
import { toEntityChangeEvent } from './entity-change-event.ts';

/** Task kinds whose end is an event, and the name each takes in its run's urn. */
const RUN_KINDS: ReadonlyMap<string, string> = new Map([
  ['truncateTimeseriesAspect', 'truncation'],
  ['retention', 'retention'],
]);

/**
 * Where a change becomes an entry of the change log: every aspect change (catalog/events/change-log.ts), and a
 * truncation or retention task leaving `running` (a RUN event). `openStore` gives these rules to the adapter, which
 * applies them to its writes' outcomes in the writes' transactions (storage/ports/change-events.ts).
 */
export const changeEventRules: ChangeEventRules = {
  changeLog: changeLogEntries,
  timeseriesLog: timeseriesLogEntries,
  webhookEvents: webhookEntries,
  entryEvents,
  taskEnded(task: TaskRecord) {
    const name = RUN_KINDS.get(task.kind);
    if (name === undefined) return [];
    return [
      platformEntry(
        toEntityChangeEvent({
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
        }),
      ),
    ];
  },
};
