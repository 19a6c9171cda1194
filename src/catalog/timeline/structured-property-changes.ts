import type { ChangeDiffer, ChangeEvent } from './change-event.ts';
import { objectList, urnId } from './change-event.ts';
import { sortedMergeDiff, sourceDetails } from './association-changes.ts';

interface Assignment {
  readonly propertyUrn: string;
  readonly values: readonly unknown[];
  readonly record: Record<string, unknown>;
}

const assignmentsOf = (value: Record<string, unknown> | undefined): Assignment[] =>
  objectList(value?.properties).flatMap((a) =>
    typeof a.propertyUrn === 'string' ? [{ propertyUrn: a.propertyUrn, values: Array.isArray(a.values) ? a.values : [], record: a }] : [],
  );

/** A value of the assignment as Jackson writes it: a string, a double (always with a fraction: 3.0), or null. */
function jsonValue(value: unknown): string {
  const v = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  if (typeof v.string === 'string') return JSON.stringify(v.string);
  if (typeof v.double === 'number') return Number.isInteger(v.double) ? `${v.double}.0` : String(v.double);
  return 'null';
}

/**
 * STRUCTURED_PROPERTY changes (DataHub's StructuredPropertyChangeEventGenerator): assignments compared in property-urn
 * order; added, removed, or with other values (MODIFY), each MINOR. Added and modified ones carry the property, its
 * values as a JSON array and the attribution's details; removed ones carry nothing, and a modification is described
 * as an addition, as DataHub does.
 */
export const structuredPropertyChanges: ChangeDiffer = (before, after, entityUrn) => {
  const event = (a: Assignment, operation: ChangeEvent['operation']): ChangeEvent => ({
    entityUrn,
    category: 'STRUCTURED_PROPERTY',
    operation,
    modifier: a.propertyUrn,
    ...(operation === 'REMOVE'
      ? {}
      : {
          parameters: {
            propertyUrn: a.propertyUrn,
            propertyValues: `[${a.values.map(jsonValue).join(',')}]`,
            sourceDetails: sourceDetails(a.record),
          },
        }),
    semVerChange: 'MINOR',
    description: `Structured property '${urnId(a.propertyUrn)}' ${operation === 'REMOVE' ? 'removed from' : 'added to'} entity '${entityUrn}'.`,
  });
  return sortedMergeDiff(
    assignmentsOf(before),
    assignmentsOf(after),
    (a) => a.propertyUrn,
    event,
    (was, is) => (JSON.stringify(was.values) === JSON.stringify(is.values) ? undefined : event(is, 'MODIFY')),
  );
};
