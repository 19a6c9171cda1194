import type { ChangeCategory, ChangeDiffer, ChangeEvent } from './change-event.ts';
import { objectList, optionalString, urnId } from './change-event.ts';

/**
 * TAG and GLOSSARY_TERM changes of an entity (DataHub's GlobalTagsChangeEventGenerator and
 * GlossaryTermsChangeEventGenerator): both aspects hold a list of associations keyed by an urn, compared in urn order;
 * each association added or removed is MINOR.
 */

interface AssociationKind {
  readonly category: ChangeCategory;
  /** The aspect's list field and the association's urn field. */
  readonly list: string;
  readonly urnField: string;
  /** The parameter naming the urn in DataHub's events. */
  readonly parameter: string;
  readonly noun: string;
}

/** The association's attribution details as DataHub passes them on: a JSON string, "{}" when there are none. */
export function sourceDetails(association: Record<string, unknown>): string {
  const attribution = association.attribution;
  const detail = attribution !== null && typeof attribution === 'object' ? (attribution as Record<string, unknown>).sourceDetail : undefined;
  return detail !== undefined && detail !== null ? JSON.stringify(detail) : '{}';
}

/**
 * DataHub's sortedMergeDiff: both lists in key order, walked together; a key only before is a REMOVE, only after an
 * ADD, one in both whatever `changed` says, in key order.
 */
export function sortedMergeDiff<T>(
  before: readonly T[],
  after: readonly T[],
  key: (item: T) => string,
  event: (item: T, operation: 'ADD' | 'REMOVE') => ChangeEvent,
  /** An item under the same key in both: its event, if it changed. */
  changed?: (before: T, after: T) => ChangeEvent | undefined,
): ChangeEvent[] {
  const byKey = (a: T, b: T) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
  const was = [...before].sort(byKey);
  const is = [...after].sort(byKey);
  const events: ChangeEvent[] = [];
  let i = 0;
  let j = 0;
  while (i < was.length || j < is.length) {
    const w = was[i];
    const n = is[j];
    if (w !== undefined && n !== undefined && key(w) === key(n)) {
      const modified = changed?.(w, n);
      if (modified) events.push(modified);
      i++;
      j++;
    } else if (w !== undefined && (n === undefined || key(w) < key(n))) {
      events.push(event(w, 'REMOVE'));
      i++;
    } else {
      events.push(event(n!, 'ADD'));
      j++;
    }
  }
  return events;
}

function associationChanges(kind: AssociationKind): ChangeDiffer {
  const sorted = (value: Record<string, unknown> | undefined) =>
    objectList(value?.[kind.list]).flatMap((a) => {
      const urn = optionalString(a[kind.urnField]);
      return urn === undefined ? [] : [{ urn, association: a }];
    });
  return (before, after, entityUrn) => {
    const event = (urn: string, association: Record<string, unknown>, operation: 'ADD' | 'REMOVE'): ChangeEvent => ({
      entityUrn,
      category: kind.category,
      operation,
      modifier: urn,
      parameters: { [kind.parameter]: urn, context: optionalString(association.context) ?? '{}', sourceDetails: sourceDetails(association) },
      semVerChange: 'MINOR',
      description: `${kind.noun} '${urnId(urn)}' ${operation === 'ADD' ? 'added to' : 'removed from'} entity '${entityUrn}'.`,
    });
    return sortedMergeDiff(
      sorted(before),
      sorted(after),
      (e) => e.urn,
      (e, operation) => event(e.urn, e.association, operation),
    );
  };
}

export const tagChanges = associationChanges({ category: 'TAG', list: 'tags', urnField: 'tag', parameter: 'tagUrn', noun: 'Tag' });
export const glossaryTermChanges = associationChanges({
  category: 'GLOSSARY_TERM',
  list: 'terms',
  urnField: 'urn',
  parameter: 'termUrn',
  noun: 'Term',
});
