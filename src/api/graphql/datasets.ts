import type { GraphQLResolveInfo } from 'graphql';
import { DEFAULT_TIMESERIES_LIMIT } from '../../catalog/catalog.ts';
import { deprecationView } from '../../catalog/deprecation.ts';
import { daysToDecommission, deprecationState } from '../../catalog/deprecation-lifecycle.ts';
import { badRequest, CatalogError } from '../../catalog/errors.ts';
import { FABRIC_TYPES, parseDatasetUrn, parseUrn, schemaFieldUrn, type DatasetKey } from '../../catalog/urn.ts';
import type { Json } from '../../storage/store.ts';
import { datasetAspectsOf, type DatasetSource } from './entity-refs.ts';
import type { GraphqlContext, GraphqlModule } from './schema.ts';
import { selectedFields } from './selected-fields.ts';

const typeDefs = /* GraphQL */ `
  "ACTIVE: not deprecated; DEPRECATED: deprecated, its decommission time (if any) not yet passed; OVERDUE: deprecated and past its decommission time (Almanac addition)."
  enum DeprecationState {
    ACTIVE
    DEPRECATED
    OVERDUE
  }

  extend type Query {
    "A dataset by urn, or null when no such dataset exists. A malformed urn is a BAD_REQUEST error."
    dataset(urn: String!): Dataset
  }

  "DataHub's FabricType, from the registry (common/FabricType.pdl)."
  enum FabricType {
    ${FABRIC_TYPES.join('\n    ')}
  }

  type Dataset implements Entity {
    urn: String!
    type: EntityType!
    "The name part of the urn."
    name: String!
    platform: DataPlatform!
    "The environment part of the urn (DataHub keeps it, deprecated, for clients that read it)."
    origin: FabricType! @deprecated
    "True, except for a dataset referenced (as a replacement) but not stored: dataset(urn) returns null for those."
    exists: Boolean
    status: Status
    properties: DatasetProperties
    "Never null: a dataset that was never deprecated reports deprecated false."
    deprecation: Deprecation
    "Where the dataset is in its decommission lifecycle (Almanac addition; DataHub's Deprecation is unchanged)."
    deprecationState: DeprecationState!
    "Days to the decommission time, rounded up: negative once whole days have passed; null without one (Almanac addition)."
    daysToDecommission: Int
    "Every stored version of the deprecation, newest first, with who wrote it and when (Almanac addition)."
    deprecationHistory(limit: Int = 100): [DeprecationHistoryEntry!]!
    "The schema: the latest (version 0, the default), or an earlier stored version of the aspect."
    schemaMetadata(version: Long): SchemaMetadata
    "Profiles from the timeseries index, newest first; filter criteria apply to the profiles' fields (partitionSpec.partition, ...)."
    datasetProfiles(startTimeMillis: Long, endTimeMillis: Long, filter: FilterInput, limit: Int): [DatasetProfile!]
  }

  type Status {
    removed: Boolean!
  }

  type DatasetProperties {
    "The name from datasetProperties, or the urn's name part."
    name: String!
    description: String
    qualifiedName: String
    externalUrl: String
  }

  type SchemaMetadata {
    name: String!
    platformUrn: String!
    version: Long!
    hash: String!
    fields: [SchemaField!]!
    primaryKeys: [String!]
  }

  enum SchemaFieldDataType {
    BOOLEAN
    FIXED
    STRING
    BYTES
    NUMBER
    DATE
    TIME
    ENUM
    NULL
    MAP
    ARRAY
    UNION
    STRUCT
  }

  type SchemaField {
    fieldPath: String!
    type: SchemaFieldDataType!
    nativeDataType: String
    nullable: Boolean!
    description: String
    "Deprecation of this field, stored on its schemaField entity. Never null."
    deprecation: Deprecation
  }

  type DatasetProfile {
    timestampMillis: Long!
    rowCount: Long
    columnCount: Long
    sizeInBytes: Long
    messageId: String
    partitionSpec: PartitionSpec
    fieldProfiles: [DatasetFieldProfile!]
  }

  enum PartitionType {
    FULL_TABLE
    QUERY
    PARTITION
  }

  type PartitionSpec {
    type: PartitionType!
    partition: String
  }

  type DatasetFieldProfile {
    fieldPath: String!
    uniqueCount: Long
    uniqueProportion: Float
    nullCount: Long
    nullProportion: Float
    min: String
    max: String
    mean: String
    median: String
    stdev: String
    sampleValues: [String!]
  }
`;

interface FieldSource {
  readonly datasetUrn: string;
  readonly field: Json;
}

/** The aspects the selection under `dataset` needs, following fragments (the selection is cached per operation). */
const selectedAspects = (info: GraphQLResolveInfo): readonly string[] => datasetAspectsOf(selectedFields(info));

/** `dataset(urn)` takes only well-formed dataset urns, with DataHub's parser messages. */
function datasetKeyOf(urn: string): DatasetKey {
  // Checked first: the parser would otherwise blame the fabric (`PROD) `) for a trailing space.
  if (/^\s|\s$/.test(urn)) throw badRequest('Error: cannot provide an URN with leading or trailing whitespace');
  const parsed = parseUrn(urn);
  if (parsed.entityType !== 'dataset') throw badRequest(`Urn ${urn} is not a dataset urn (entity type ${parsed.entityType})`);
  try {
    return parseDatasetUrn(parsed);
  } catch (e) {
    throw e instanceof CatalogError ? badRequest(`Invalid dataset urn ${urn}: ${e.message}`) : e;
  }
}

/** SchemaFieldDataType is a Pegasus union: `{"type": {"com.linkedin.schema.StringType": {}}}`. */
const FIELD_TYPES: Readonly<Record<string, string>> = {
  BooleanType: 'BOOLEAN',
  FixedType: 'FIXED',
  StringType: 'STRING',
  BytesType: 'BYTES',
  NumberType: 'NUMBER',
  DateType: 'DATE',
  TimeType: 'TIME',
  EnumType: 'ENUM',
  NullType: 'NULL',
  MapType: 'MAP',
  ArrayType: 'ARRAY',
  UnionType: 'UNION',
  RecordType: 'STRUCT',
};

function fieldType(field: Json): string {
  const member = Object.keys(((field.type as Json | undefined)?.type as Json | undefined) ?? {})[0] ?? '';
  const type = FIELD_TYPES[member.slice(member.lastIndexOf('.') + 1)];
  // DataHub's mapper fails the same way on a type it does not know.
  if (!type) throw new Error(`Unrecognized SchemaFieldDataType provided ${member}`);
  return type;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The window, filter and limit of DataHub's dataset timeseries fields (datasetProfiles, operations). */
export interface TimeseriesArgs {
  readonly startTimeMillis?: number | null;
  readonly endTimeMillis?: number | null;
  readonly filter?: { and: unknown[] } | null;
  readonly limit?: number | null;
}

/** One timeseries aspect of a dataset, newest first, as DataHub's getTimeseriesAspectValues reads it. */
export function datasetTimeseries(ctx: GraphqlContext, urn: string, aspect: string, args: TimeseriesArgs) {
  return entityTimeseries(ctx, urn, 'dataset', aspect, args);
}

/** One timeseries aspect of any entity, newest first, as DataHub's getTimeseriesAspectValues reads it. */
export function entityTimeseries(ctx: GraphqlContext, urn: string, entityType: string, aspect: string, args: TimeseriesArgs) {
  return ctx.app.catalog.timeseriesValues({
    urn,
    entityType,
    aspect,
    startTimeMillis: args.startTimeMillis ?? undefined,
    endTimeMillis: args.endTimeMillis ?? undefined,
    limit: profileLimit(args.limit),
    // DataHub's FilterInput is one conjunction: the same Filter getTimeseriesAspectValues takes.
    filter: args.filter ? { or: [{ and: args.filter.and }] } : undefined,
  });
}

function profileLimit(limit: number | null | undefined): number {
  if (limit == null) return DEFAULT_TIMESERIES_LIMIT;
  if (limit < 1 || limit > DEFAULT_TIMESERIES_LIMIT) throw badRequest(`limit must be from 1 to ${DEFAULT_TIMESERIES_LIMIT}, got ${limit}`);
  return limit;
}

export const datasetsModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Query: {
      dataset: async (_s, args: { urn: string }, ctx, info): Promise<DatasetSource | null> => {
        const key = datasetKeyOf(args.urn);
        const aspects = await ctx.entities.load(args.urn, selectedAspects(info));
        return aspects ? { urn: args.urn, key, aspects } : null;
      },
    },
    Dataset: {
      type: () => 'DATASET',
      name: (d: DatasetSource) => d.key.name,
      origin: (d: DatasetSource) => d.key.origin,
      platform: (d: DatasetSource) => ({ __typename: 'DataPlatform', urn: d.key.platform, entity: 'dataPlatform', parts: [d.key.platformName] }),
      exists: (d: DatasetSource) => d.exists ?? true,
      status: (d: DatasetSource) => d.aspects.get('status') ?? null,
      properties: (d: DatasetSource) => {
        const p = d.aspects.get('datasetProperties');
        if (!p) return null;
        return {
          name: str(p.name) ?? d.key.name,
          description: str(p.description),
          qualifiedName: str(p.qualifiedName),
          externalUrl: str(p.externalUrl),
          // Read by customProperties (dataset-annotations.ts).
          customProperties: p.customProperties,
          associatedUrn: d.urn,
        };
      },
      deprecation: (d: DatasetSource) => deprecationView(d.aspects.get('deprecation')),
      deprecationState: (d: DatasetSource) => deprecationState(deprecationView(d.aspects.get('deprecation')), Date.now()),
      daysToDecommission: (d: DatasetSource) => daysToDecommission(deprecationView(d.aspects.get('deprecation')), Date.now()),
      schemaMetadata: async (d: DatasetSource, args: { version?: number | null }, ctx) => {
        const s = args.version ? (await ctx.app.catalog.getAspect(d.urn, 'schemaMetadata', args.version))?.value : d.aspects.get('schemaMetadata');
        if (!s) return null;
        const fields = Array.isArray(s.fields) ? (s.fields as Json[]) : [];
        return {
          name: s.schemaName,
          platformUrn: s.platform,
          version: s.version,
          hash: s.hash,
          primaryKeys: s.primaryKeys ?? null,
          fields: fields.map((field): FieldSource => ({ datasetUrn: d.urn, field })),
          aspectVersion: args.version ?? 0,
          datasetUrn: d.urn,
          cluster: str(s.cluster),
          createdAt: (s.created as Json | undefined)?.time ?? null,
        };
      },
      datasetProfiles: async (d: DatasetSource, args: TimeseriesArgs, ctx) => {
        const events = await datasetTimeseries(ctx, d.urn, 'datasetProfile', args);
        return events.map((e) => {
          const ps = e.event.partitionSpec as Json | undefined;
          return { ...e.event, partitionSpec: ps ? { type: ps.type ?? 'PARTITION', partition: str(ps.partition) } : null };
        });
      },
    },
    SchemaField: {
      fieldPath: (f: FieldSource) => f.field.fieldPath,
      type: (f: FieldSource) => fieldType(f.field),
      nativeDataType: (f: FieldSource) => str(f.field.nativeDataType),
      nullable: (f: FieldSource) => f.field.nullable === true,
      description: (f: FieldSource) => str(f.field.description),
      deprecation: async (f: FieldSource, _a, ctx) => {
        const field = await ctx.entities.load(schemaFieldUrn(f.datasetUrn, String(f.field.fieldPath)), ['deprecation']);
        return deprecationView(field?.get('deprecation'));
      },
    },
  },
};
