import type { ChangeDiffer, ChangeEvent } from './change-event.ts';
import { optionalString } from './change-event.ts';

/**
 * DOCUMENTATION changes of an entity's description (DataHub's DatasetPropertiesChangeEventGenerator and
 * EditableDatasetPropertiesChangeEventGenerator, the same rule on either aspect): added, removed or changed, each MINOR.
 */
export const descriptionChanges: ChangeDiffer = (before, after, entityUrn) => {
  const was = optionalString(before?.description);
  const is = optionalString(after.description);
  const event = (operation: ChangeEvent['operation'], description: string, current: string): ChangeEvent[] => [
    { entityUrn, category: 'DOCUMENTATION', operation, semVerChange: 'MINOR', description, parameters: { description: current } },
  ];
  if (was === undefined && is !== undefined) return event('ADD', `Documentation for '${entityUrn}' has been added: '${is}'.`, is);
  if (was !== undefined && is === undefined) return event('REMOVE', `Documentation for '${entityUrn}' has been removed: '${was}'.`, was);
  if (was !== undefined && is !== undefined && was !== is) {
    return event('MODIFY', `Documentation of '${entityUrn}' has been changed from '${was}' to '${is}'.`, is);
  }
  return [];
};
