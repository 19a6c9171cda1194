import type { ChangeDiffer, ChangeEvent } from './change-event.ts';
import { objectList, optionalString, urnId } from './change-event.ts';
import { sourceDetails } from './association-changes.ts';

/**
 * OWNERSHIP changes (DataHub's OwnershipChangeEventGenerator): owners are compared within each (type, typeUrn) pair,
 * so an owner whose type changed is removed under the old type and added under the new one. Each is MINOR.
 */
export const ownershipChanges: ChangeDiffer = (before, after, entityUrn) => {
  const groups = new Map<string, { was: Map<string, Record<string, unknown>>; is: Map<string, Record<string, unknown>> }>();
  const collect = (value: Record<string, unknown> | undefined, side: 'was' | 'is') => {
    for (const owner of objectList(value?.owners)) {
      const urn = optionalString(owner.owner);
      if (urn === undefined) continue;
      const group = `${optionalString(owner.type) ?? ''}\u0000${optionalString(owner.typeUrn) ?? ''}`;
      if (!groups.has(group)) groups.set(group, { was: new Map(), is: new Map() });
      groups.get(group)![side].set(urn, owner);
    }
  };
  collect(before, 'was');
  collect(after, 'is');
  const events: ChangeEvent[] = [];
  for (const { was, is } of groups.values()) {
    for (const [urn, owner] of is) if (!was.has(urn)) events.push(ownerEvent(owner, urn, entityUrn, 'ADD'));
    for (const [urn, owner] of was) if (!is.has(urn)) events.push(ownerEvent(owner, urn, entityUrn, 'REMOVE'));
  }
  return events;
};

function ownerEvent(owner: Record<string, unknown>, urn: string, entityUrn: string, operation: 'ADD' | 'REMOVE'): ChangeEvent {
  const type = optionalString(owner.type) ?? 'NONE';
  const typeUrn = optionalString(owner.typeUrn);
  return {
    entityUrn,
    category: 'OWNERSHIP',
    operation,
    modifier: urn,
    parameters: { ownerUrn: urn, ownerType: type, ...(typeUrn !== undefined && { ownerTypeUrn: typeUrn }), sourceDetails: sourceDetails(owner) },
    semVerChange: 'MINOR',
    description: `'${urnId(urn)}' ${operation === 'ADD' ? 'added as' : 'removed as'} a \`${type}\` of '${entityUrn}'.`,
  };
}
