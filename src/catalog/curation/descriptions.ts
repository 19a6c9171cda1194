import { badRequest } from '../errors.ts';
import type { Urn } from '../urn.ts';
import type { Json } from '../../storage/store.ts';

/** Where updateDescription writes an entity type's description (DataHub's DescriptionUtils). */
interface DescriptionTarget {
  readonly aspect: string;
  /** Glossary terms and nodes call it a definition. */
  readonly property: 'description' | 'definition';
  /** Set for aspects with required properties the mutation cannot invent: DataHub's refusal when there is none yet. */
  readonly requiresExisting?: string;
  /** What a new aspect starts from (a tag's properties need its name). */
  readonly initial?: (urn: Urn) => Json;
}

const editable = (aspect: string): DescriptionTarget => ({ aspect, property: 'description' });

/** The entity types DataHub's UpdateDescriptionResolver serves, by registry name; any other is refused. */
const TARGETS: Readonly<Record<string, DescriptionTarget>> = {
  dataset: editable('editableDatasetProperties'),
  container: editable('editableContainerProperties'),
  domain: { aspect: 'domainProperties', property: 'description', requiresExisting: 'Properties for this Domain do not yet exist!' },
  glossaryTerm: { aspect: 'glossaryTermInfo', property: 'definition', requiresExisting: 'Properties for this Glossary Term do not yet exist!' },
  glossaryNode: { aspect: 'glossaryNodeInfo', property: 'definition', requiresExisting: 'Glossary Node does not exist' },
  tag: { aspect: 'tagProperties', property: 'description', initial: (urn) => ({ name: urn.parts[0] ?? urn.raw }) },
  corpGroup: editable('corpGroupEditableInfo'),
  notebook: editable('editableNotebookProperties'),
  mlModel: editable('editableMlModelProperties'),
  mlModelGroup: editable('editableMlModelGroupProperties'),
  mlFeatureTable: editable('editableMlFeatureTableProperties'),
  mlFeature: editable('editableMlFeatureProperties'),
  mlPrimaryKey: editable('editableMlPrimaryKeyProperties'),
  dataProduct: editable('dataProductProperties'),
  application: editable('applicationProperties'),
};

/** The aspect and the update that set the entity's description; refuses a type DataHub does not describe this way. */
export function descriptionEdit(entityType: string, urn: Urn, description: string): { aspect: string; update: (current: Json | undefined) => Json } {
  const target = TARGETS[entityType];
  if (!target) throw badRequest(`Failed to update description. Unsupported resource type ${urn.raw} provided.`);
  return {
    aspect: target.aspect,
    update: (current) => {
      if (current === undefined && target.requiresExisting) throw badRequest(target.requiresExisting);
      return { ...(current ?? target.initial?.(urn) ?? {}), [target.property]: description };
    },
  };
}

/**
 * Where DataHub's updateChart, updateDashboard, updateDataFlow and updateDataJob write `editableProperties.description`
 * (its ChartType, DashboardType, DataFlowType and DataJobType mappers): those types' descriptions, which its
 * updateDescription refuses.
 */
const EDITABLE_PROPERTIES: Readonly<Record<string, DescriptionTarget>> = {
  chart: editable('editableChartProperties'),
  dashboard: editable('editableDashboardProperties'),
  dataFlow: editable('editableDataFlowProperties'),
  dataJob: editable('editableDataJobProperties'),
};

/** The aspect and the update that set the entity's editable properties' description, for update<Type>. */
export function editablePropertiesEdit(entityType: string, description: string): { aspect: string; update: (current: Json | undefined) => Json } {
  const target = EDITABLE_PROPERTIES[entityType]!;
  return { aspect: target.aspect, update: (current) => ({ ...(current ?? {}), description }) };
}
