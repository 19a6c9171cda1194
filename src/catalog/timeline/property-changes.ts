import type { ChangeDiffer, ChangeEvent } from './change-event.ts';
import { objectList, optionalString } from './change-event.ts';
import { sortedMergeDiff } from './association-changes.ts';

/** One text field of a properties aspect and DataHub's sentences for it (`%e` the entity urn, `%a`/`%b` the values). */
interface TextField {
  readonly field: string;
  readonly added: string;
  /** Absent where DataHub reports no removal (a required field). */
  readonly removed?: string;
  readonly changed: string;
}

const NAME = (removable: boolean): TextField => ({
  field: 'name',
  added: "Name for '%e' has been set: '%a'.",
  ...(removable ? { removed: "Name for '%e' has been removed: '%a'." } : {}),
  changed: "Name of '%e' has been changed from '%a' to '%b'.",
});
const DESCRIPTION: TextField = {
  field: 'description',
  added: "Description for '%e' has been added: '%a'.",
  removed: "Description for '%e' has been removed: '%a'.",
  changed: "Description of '%e' has been changed from '%a' to '%b'.",
};
/** A glossary term's definition is described as documentation. */
const DEFINITION: TextField = {
  field: 'definition',
  added: "Documentation for '%e' has been added: '%a'.",
  removed: "Documentation for '%e' has been removed: '%a'.",
  changed: "Documentation of '%e' has been changed from '%a' to '%b'.",
};

/** One pass, so a value holding `%b` or `$&` is written as it is. */
const say = (format: string, entityUrn: string, a: string, b = '') => format.replace(/%[eab]/g, (m) => (m === '%e' ? entityUrn : m === '%a' ? a : b));

/** DOCUMENTATION changes of the fields, each set, removed or changed a MINOR event with no parameters, field by field. */
function textChanges(fields: readonly TextField[]): ChangeDiffer {
  return (before, after, entityUrn) =>
    fields.flatMap((f): ChangeEvent[] => {
      const was = optionalString(before?.[f.field]);
      const is = optionalString(after[f.field]);
      const event = (operation: ChangeEvent['operation'], description: string): ChangeEvent[] => [
        { entityUrn, category: 'DOCUMENTATION', operation, semVerChange: 'MINOR', description },
      ];
      if (was === undefined && is !== undefined) return event('ADD', say(f.added, entityUrn, is));
      if (was !== undefined && is === undefined) return f.removed ? event('REMOVE', say(f.removed, entityUrn, was)) : [];
      if (was !== undefined && is !== undefined && was !== is) return event('MODIFY', say(f.changed, entityUrn, was, is));
      return [];
    });
}

/** DataHub's GlossaryTermInfoChangeEventGenerator: the name (set or changed) and the definition. */
export const glossaryTermInfoChanges = textChanges([NAME(false), DEFINITION]);
/** DataHub's DomainPropertiesChangeEventGenerator: the name (set or changed) and the description. */
export const domainPropertiesChanges = textChanges([NAME(false), DESCRIPTION]);
/** DataHub's DataProductPropertiesChangeEventGenerator, documentation part: the name and the description. */
export const dataProductPropertiesChanges = textChanges([NAME(true), DESCRIPTION]);

const assetsOf = (value: Record<string, unknown> | undefined): string[] =>
  objectList(value?.assets).flatMap((a) => (typeof a.destinationUrn === 'string' ? [a.destinationUrn] : []));

/** ASSET_MEMBERSHIP: a data product's assets added and removed, in urn order, each MINOR (DataProductPropertiesChangeEventGenerator). */
export const dataProductAssetChanges: ChangeDiffer = (before, after, entityUrn) =>
  sortedMergeDiff(
    assetsOf(before),
    assetsOf(after),
    (urn) => urn,
    (urn, operation) => ({
      entityUrn,
      category: 'ASSET_MEMBERSHIP',
      operation,
      modifier: urn,
      semVerChange: 'MINOR',
      description: `Asset '${urn}' ${operation === 'ADD' ? 'added to' : 'removed from'} data product '${entityUrn}'.`,
    }),
  );
