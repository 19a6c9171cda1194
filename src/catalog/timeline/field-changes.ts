import { schemaFieldUrn } from '../urn.ts';
import { alignFields } from './schema-changes.ts';
import { glossaryTermChanges, tagChanges } from './association-changes.ts';
import type { ChangeDiffer, ChangeEvent } from './change-event.ts';
import { objectList, optionalString } from './change-event.ts';

/**
 * TAG, GLOSSARY_TERM and DOCUMENTATION changes of a dataset's fields as people edit them (editableSchemaMetadata;
 * DataHub's EditableSchemaMetadataChangeEventGenerator): each field's entry, in field path order, compared with the
 * same path's entry before. Each event is about the field (its entityUrn is the schemaField urn) and names the field
 * and its dataset in its parameters.
 */

type FieldInfo = Record<string, unknown>;
type PerField = (before: FieldInfo | undefined, after: FieldInfo | undefined, fieldUrn: string, fieldPath: string) => ChangeEvent[];

function fieldDiffer(perField: PerField): ChangeDiffer {
  return (before, after, datasetUrn) => {
    const byPath = (value: Record<string, unknown> | undefined) =>
      new Map(objectList(value?.editableSchemaFieldInfo).flatMap((f) => (typeof f.fieldPath === 'string' ? [[f.fieldPath, f] as const] : [])));
    const was = byPath(before);
    const is = byPath(after);
    // Java's String.compareTo and JavaScript's < both order by UTF-16 code unit.
    const paths = [...new Set([...was.keys(), ...is.keys()])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return paths.flatMap((path) =>
      perField(was.get(path), is.get(path), schemaFieldUrn(datasetUrn, path), path).map((e) => withField(e, path, datasetUrn)),
    );
  };
}

/** DataHub's convertEntity...ChangeEvent(s): the field path and the dataset join the event's parameters. */
const withField = (e: ChangeEvent, fieldPath: string, parentUrn: string): ChangeEvent => ({
  ...e,
  parameters: { fieldPath, parentUrn, ...e.parameters },
});

/**
 * The entity-level differ of an association list, run on the field's own list with the field as the entity; of its
 * parameters DataHub keeps the urn and the context.
 */
const associations =
  (differ: ChangeDiffer, aspect: string, urnParameter: string): PerField =>
  (before, after, fieldUrn) =>
    differ(before?.[aspect] as Record<string, unknown> | undefined, (after?.[aspect] as Record<string, unknown> | undefined) ?? {}, fieldUrn).map(
      (e) => ({ ...e, parameters: { [urnParameter]: e.parameters?.[urnParameter], context: e.parameters?.context } }),
    );

const perFieldTags = associations(tagChanges, 'globalTags', 'tagUrn');
const perFieldTerms = associations(glossaryTermChanges, 'glossaryTerms', 'termUrn');
export const fieldTagChanges = fieldDiffer(perFieldTags);
export const fieldGlossaryTermChanges = fieldDiffer(perFieldTerms);

export const fieldDocumentationChanges = fieldDiffer((before, after, fieldUrn, fieldPath) => {
  const was = optionalString(before?.description);
  const is = optionalString(after?.description);
  const event = (
    operation: ChangeEvent['operation'],
    semVerChange: ChangeEvent['semVerChange'],
    description: string,
    current: string,
  ): ChangeEvent[] => [
    {
      entityUrn: fieldUrn,
      category: 'DOCUMENTATION',
      operation,
      modifier: fieldPath,
      semVerChange,
      description,
      parameters: { description: current },
    },
  ];
  if (was === undefined && is !== undefined)
    return event('ADD', 'MINOR', `Documentation for the field '${fieldPath}' of '${fieldUrn}' has been added: '${is}'`, is);
  if (was !== undefined && is === undefined) {
    // DataHub formats a java.util.Optional of the field's later entry here: Optional.empty when the entry went.
    const shown = after === undefined ? 'Optional.empty' : `Optional[${fieldPath}]`;
    return event('REMOVE', 'MINOR', `Documentation for the field '${shown}' of '${fieldUrn}' has been removed: '${was}'`, was);
  }
  if (was !== undefined && is !== undefined && was !== is)
    return event('MODIFY', 'PATCH', `Documentation for the field '${fieldPath}' of '${fieldUrn}' has been updated from '${was}' to '${is}'.`, is);
  return [];
});

/**
 * A field's description as ingested (schemaMetadata; DataHub's SchemaMetadataChangeEventGenerator.getDescriptionChange):
 * the same operations and parameters as an edited one, without a modifier, in that generator's words.
 */
const ingestedDescription: PerField = (before, after, fieldUrn, fieldPath) => {
  const was = optionalString(before?.description);
  const is = optionalString(after?.description);
  const event = (operation: ChangeEvent['operation'], semVerChange: ChangeEvent['semVerChange'], description: string, current: string) => [
    { entityUrn: fieldUrn, category: 'DOCUMENTATION' as const, operation, semVerChange, description, parameters: { description: current } },
  ];
  if (was === undefined && is !== undefined) return event('ADD', 'MINOR', `The description '${is}' for the field '${fieldPath}' has been added.`, is);
  if (was !== undefined && is === undefined)
    return event('REMOVE', 'MINOR', `The description '${was}' for the field '${fieldPath}' has been removed.`, was);
  if (was !== undefined && is !== undefined && was !== is)
    return event('MODIFY', 'PATCH', `The description for the field '${fieldPath}' has been changed from '${was}' to '${is}'.`, is);
  return [];
};

/**
 * DOCUMENTATION, TAG and GLOSSARY_TERM changes of the fields as ingested, inside schemaMetadata (DataHub's
 * SchemaMetadataChangeEventGenerator.getFieldPropertyChangeEvents, which its Entity Change Events carry and the
 * timeline does not): for each field in the order the schema's fields align (a renamed field compared with what it
 * was renamed from), its description's, tags' and terms' events, about the field.
 */
export const schemaFieldPropertyChanges: ChangeDiffer = (before, after, datasetUrn) =>
  alignFields(before, after).flatMap((step) => {
    const was = 'base' in step ? step.base.value : undefined;
    const is = 'target' in step ? step.target.value : undefined;
    const fieldPath = 'target' in step ? step.target.path : step.base.path;
    const fieldUrn = schemaFieldUrn(datasetUrn, fieldPath);
    return [ingestedDescription, perFieldTags, perFieldTerms]
      .flatMap((perField) => perField(was, is, fieldUrn, fieldPath))
      .map((e) => withField(e, fieldPath, datasetUrn));
  });
