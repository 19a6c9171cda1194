import type { ChangeDiffer } from './change-event.ts';
import { optionalString } from './change-event.ts';

/**
 * DEPRECATION changes: the parameters are those of DataHub's DeprecationChangeEventGenerator (status DEPRECATED with
 * its decommission time and note, or ACTIVE), which DataHub emits as entity change events but not on its timeline.
 * DataHub's events carry no description and no semantic change; the timeline's clients print both, so Almanac adds
 * its own description and counts a deprecation as MINOR, like the other changes of an entity's metadata.
 */
export const deprecationChanges: ChangeDiffer = (before, after, entityUrn) => {
  const was = before?.deprecated === true;
  const is = after.deprecated === true;
  if (!was && is) {
    const note = optionalString(after.note);
    const time = after.decommissionTime;
    return [
      {
        entityUrn,
        category: 'DEPRECATION',
        operation: 'MODIFY',
        parameters: {
          status: 'DEPRECATED',
          ...(typeof time === 'number' && { timestamp: String(time) }),
          ...(note !== undefined && { note }),
        },
        semVerChange: 'MINOR',
        description: `'${entityUrn}' has been deprecated${note ? `: '${note}'` : ''}.`,
      },
    ];
  }
  if (was && !is) {
    return [
      {
        entityUrn,
        category: 'DEPRECATION',
        operation: 'MODIFY',
        parameters: { status: 'ACTIVE' },
        semVerChange: 'MINOR',
        description: `'${entityUrn}' is no longer deprecated.`,
      },
    ];
  }
  return [];
};
