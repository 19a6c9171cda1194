import type { ChangeDiffer } from './change-event.ts';
import { urnId } from './change-event.ts';
import { sortedMergeDiff } from './association-changes.ts';

const applicationsOf = (value: Record<string, unknown> | undefined): string[] =>
  Array.isArray(value?.applications) ? value.applications.filter((a): a is string => typeof a === 'string') : [];

/**
 * APPLICATION changes (DataHub's ApplicationsChangeEventGenerator): the `applications` aspect's urns compared in urn
 * order, each added or removed one a MINOR event with no parameters.
 */
export const applicationChanges: ChangeDiffer = (before, after, entityUrn) =>
  sortedMergeDiff(
    applicationsOf(before),
    applicationsOf(after),
    (urn) => urn,
    (urn, operation) => ({
      entityUrn,
      category: 'APPLICATION',
      operation,
      modifier: urn,
      semVerChange: 'MINOR',
      description: `Application '${urnId(urn)}' ${operation === 'ADD' ? 'added to' : 'removed from'} entity '${entityUrn}'.`,
    }),
  );
