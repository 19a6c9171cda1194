import type { Json } from '../../storage/store.ts';
import { glossaryTerms, globalTags, objects } from './associations.ts';
import { num, str } from './entity-fields.ts';
import { datasetTimeseries, type TimeseriesArgs } from './datasets.ts';
import { aspectOf, type DatasetSource } from './entity-refs.ts';
import type { GraphqlModule } from './schema.ts';

/**
 * What DataHub's Dataset adds beyond its common fields: the schema's
 * editable field metadata (editableSchemaMetadata), the deprecated
 * description (the edited one, else the ingested one) and operations.
 */
const typeDefs = /* GraphQL */ `
  type EditableSchemaFieldInfo {
    fieldPath: String!
    description: String
    globalTags: GlobalTags @deprecated(reason: "Use tags")
    tags: GlobalTags
    glossaryTerms: GlossaryTerms
  }

  type EditableSchemaMetadata {
    editableSchemaFieldInfo: [EditableSchemaFieldInfo!]!
  }

  enum OperationType {
    INSERT
    UPDATE
    DELETE
    CREATE
    ALTER
    DROP
    UNKNOWN
    CUSTOM
  }

  enum OperationSourceType {
    DATA_PROCESS
    DATA_PLATFORM
  }

  type StringMapEntry {
    key: String!
    value: String
  }

  type Operation {
    timestampMillis: Long!
    actor: String
    operationType: OperationType!
    customOperationType: String
    sourceType: OperationSourceType
    numAffectedRows: Long
    affectedDatasets: [String!]
    lastUpdatedTimestamp: Long!
    partition: String
    customProperties: [StringMapEntry!]
  }

  extend type SchemaField {
    jsonPath: String
    label: String
    recursive: Boolean!
    isPartOfKey: Boolean
    isPartitioningKey: Boolean
    jsonProps: String
  }

  extend type SchemaMetadata {
    "The aspect version this schema was read from (0, the latest, unless asked)."
    aspectVersion: Long
    datasetUrn: String
    cluster: String
    createdAt: Long
  }

  extend type Dataset {
    "Descriptions, tags and terms edited on the schema's fields."
    editableSchemaMetadata: EditableSchemaMetadata
    "The edited description, else the ingested one."
    description: String @deprecated(reason: "Use properties.description or editableProperties.description")
    "Operations from the timeseries index, newest first."
    operations(startTimeMillis: Long, endTimeMillis: Long, filter: FilterInput, limit: Int): [Operation!]
  }
`;

const OPERATION_TYPES = new Set(['INSERT', 'UPDATE', 'DELETE', 'CREATE', 'ALTER', 'DROP', 'UNKNOWN', 'CUSTOM']);

interface FieldSource {
  readonly field: Json;
}

const fieldValue =
  <T>(read: (v: unknown) => T) =>
  (key: string) =>
  (f: FieldSource) =>
    read(f.field[key]);
const fieldString = fieldValue(str);
const fieldFlag = fieldValue((v) => (typeof v === 'boolean' ? v : null));

export const datasetEditableModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    SchemaField: {
      jsonPath: fieldString('jsonPath'),
      label: fieldString('label'),
      recursive: (f: FieldSource) => f.field.recursive === true,
      isPartOfKey: fieldFlag('isPartOfKey'),
      isPartitioningKey: fieldFlag('isPartitioningKey'),
      jsonProps: fieldString('jsonProps'),
    },
    Dataset: {
      editableSchemaMetadata: async (d: DatasetSource, _a, ctx) => {
        const value = await aspectOf(ctx, d.urn, 'editableSchemaMetadata');
        if (!value) return null;
        return {
          editableSchemaFieldInfo: await Promise.all(
            objects(value.editableSchemaFieldInfo).map(async (f) => {
              const tags = await globalTags(ctx, f.globalTags as Json | undefined, d.urn);
              return {
                fieldPath: str(f.fieldPath) ?? '',
                description: str(f.description),
                globalTags: tags,
                tags,
                glossaryTerms: await glossaryTerms(ctx, f.glossaryTerms as Json | undefined, d.urn),
              };
            }),
          ),
        };
      },
      description: async (d: DatasetSource, _a, ctx) =>
        str((await aspectOf(ctx, d.urn, 'editableDatasetProperties'))?.description) ??
        str((await aspectOf(ctx, d.urn, 'datasetProperties'))?.description),
      operations: async (d: DatasetSource, args: TimeseriesArgs, ctx) => {
        const events = await datasetTimeseries(ctx, d.urn, 'operation', args);
        return events.map(({ event: e }) => {
          const props = e.customProperties;
          return {
            timestampMillis: num(e.timestampMillis) ?? 0,
            actor: str(e.actor),
            operationType: OPERATION_TYPES.has(String(e.operationType)) ? e.operationType : 'UNKNOWN',
            customOperationType: str(e.customOperationType),
            sourceType: str(e.sourceType),
            numAffectedRows: num(e.numAffectedRows),
            affectedDatasets: Array.isArray(e.affectedDatasets) ? e.affectedDatasets : null,
            lastUpdatedTimestamp: num(e.lastUpdatedTimestamp) ?? 0,
            partition: str((e.partitionSpec as Json | undefined)?.partition),
            customProperties:
              typeof props === 'object' && props !== null && !Array.isArray(props)
                ? Object.entries(props as Json).map(([key, value]) => ({ key, value: str(value) }))
                : null,
          };
        });
      },
    },
  },
};
