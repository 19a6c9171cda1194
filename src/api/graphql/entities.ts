import { SETTINGS_FLAGS } from '../../catalog/curation/structured-property-settings.ts';
import type { Json } from '../../storage/store.ts';
import { entityRef, keyPart, type EntitySource } from './entity-refs.ts';
import {
  COMMON,
  deprecationField,
  existsField,
  fromAspect,
  keyField,
  named,
  platformFromKey,
  refField,
  statusField,
  str,
  subTypesField,
} from './entity-fields.ts';
import type { GraphqlModule, Resolvers } from './schema.ts';
import { customPropertiesEntries } from './associations.ts';

/** An ML entity's properties aspect as DataHub's ML*Properties: its description and custom properties. */
const mlProperties = (aspect: string) =>
  fromAspect(aspect, (v, e) => ({ description: str(v.description), customProperties: customPropertiesEntries(v.customProperties, e.urn) }));

/**
 * DataHub's GraphQL object types for the entity kinds Almanac stores, with the
 * fields DataHub declares for them (names and types as in DataHub's SDL), a
 * subset: what DataHub's own fragments (entityDisplayNameFields,
 * deprecationFields, platformFields), the token list and datahub-gc select.
 * A field DataHub declares and Almanac lacks is a validation error naming it.
 * Dataset is in datasets.ts; the jobs (DataFlow, DataJob, DataProcessInstance) in jobs.ts;
 * Domain, GlossaryTerm and GlossaryNode, Container, DataProduct, Tag and CorpGroup each in
 * their own file. The fields every type derives from a common aspect come from entity-aspect-fields.ts.
 */
const typeDefs = /* GraphQL */ `
  extend type Query {
    "Any entity by urn, or null when Almanac has no GraphQL type for it. Does not check that it exists."
    entity(urn: String!): Entity
  }

  type AuditStamp {
    time: Long!
    actor: String
  }

  type SubTypes {
    typeNames: [String!]
  }

  type CorpUser implements Entity {
    urn: String!
    type: EntityType!
    username: String!
    "From the corpUserInfo aspect."
    properties: CorpUserProperties
    "From the corpUserEditableInfo aspect."
    editableProperties: CorpUserEditableProperties
    info: CorpUserInfo @deprecated
    exists: Boolean
  }

  type CorpUserProperties {
    active: Boolean!
    displayName: String
    email: String
    title: String
    departmentId: Long
    departmentName: String
    firstName: String
    lastName: String
    fullName: String
    countryCode: String
  }

  type CorpUserInfo {
    active: Boolean!
    displayName: String
    email: String
    title: String
    departmentId: Long
    departmentName: String
    firstName: String
    lastName: String
    fullName: String
    countryCode: String
  }

  type CorpUserEditableProperties {
    displayName: String
    title: String
    aboutMe: String
    teams: [String!]
    skills: [String!]
    pictureLink: String
    slack: String
    phone: String
    email: String
  }

  enum PlatformType {
    FILE_SYSTEM
    KEY_VALUE_STORE
    MESSAGE_BROKER
    OBJECT_STORE
    OLAP_DATASTORE
    QUERY_ENGINE
    RELATIONAL_DB
    SEARCH_ENGINE
    OTHERS
  }

  type DataPlatform implements Entity {
    urn: String!
    type: EntityType!
    "Almanac does not track ingestion times per entity: always null."
    lastIngested: Long
    name: String!
    "From the dataPlatformInfo aspect."
    properties: DataPlatformProperties
    displayName: String @deprecated
    info: DataPlatformInfo @deprecated
  }

  type DataPlatformProperties {
    type: PlatformType!
    displayName: String
    datasetNameDelimiter: String!
    logoUrl: String
    logical: Boolean
  }

  type DataPlatformInfo {
    type: PlatformType!
    displayName: String
    datasetNameDelimiter: String!
    logoUrl: String
  }

  type DataPlatformInstance implements Entity {
    urn: String!
    type: EntityType!
    platform: DataPlatform!
    instanceId: String!
    status: Status
    deprecation: Deprecation
  }

  type Application implements Entity {
    urn: String!
    type: EntityType!
    properties: ApplicationProperties
  }

  type ApplicationProperties {
    name: String!
    description: String
    externalUrl: String
  }

  "Of DataHub's MLModelProperties, the description and custom properties (its other fields are not served yet)."
  type MLModelProperties {
    description: String
    customProperties: [CustomPropertiesEntry!]
  }

  type MLModel implements Entity {
    urn: String!
    type: EntityType!
    lastIngested: Long
    name: String!
    properties: MLModelProperties
    platform: DataPlatform!
    status: Status
    deprecation: Deprecation
    exists: Boolean
  }

  "Of DataHub's MLModelGroupProperties, the description and custom properties (its other fields are not served yet)."
  type MLModelGroupProperties {
    description: String
    customProperties: [CustomPropertiesEntry!]
  }

  type MLModelGroup implements Entity {
    urn: String!
    type: EntityType!
    lastIngested: Long
    name: String!
    properties: MLModelGroupProperties
    platform: DataPlatform!
    status: Status
    deprecation: Deprecation
    exists: Boolean
  }

  "Of DataHub's MLFeatureTableProperties, the description and custom properties (its other fields are not served yet)."
  type MLFeatureTableProperties {
    description: String
    customProperties: [CustomPropertiesEntry!]
  }

  type MLFeatureTable implements Entity {
    urn: String!
    type: EntityType!
    lastIngested: Long
    name: String!
    properties: MLFeatureTableProperties
    platform: DataPlatform!
    status: Status
    deprecation: Deprecation
    exists: Boolean
  }

  "Of DataHub's MLFeatureProperties, the description and custom properties (its other fields are not served yet)."
  type MLFeatureProperties {
    description: String
    customProperties: [CustomPropertiesEntry!]
  }

  type MLFeature implements Entity {
    urn: String!
    type: EntityType!
    lastIngested: Long
    name: String!
    properties: MLFeatureProperties
    featureNamespace: String!
    status: Status
    deprecation: Deprecation
    exists: Boolean
  }

  "Of DataHub's MLPrimaryKeyProperties, the description and custom properties (its other fields are not served yet)."
  type MLPrimaryKeyProperties {
    description: String
    customProperties: [CustomPropertiesEntry!]
  }

  type MLPrimaryKey implements Entity {
    urn: String!
    type: EntityType!
    lastIngested: Long
    name: String!
    properties: MLPrimaryKeyProperties
    featureNamespace: String!
    status: Status
    deprecation: Deprecation
    exists: Boolean
  }

  type Notebook implements Entity {
    urn: String!
    type: EntityType!
    tool: String!
    notebookId: String!
    status: Status
    subTypes: SubTypes
    exists: Boolean
  }

  type BusinessAttribute implements Entity {
    urn: String!
    type: EntityType!
    status: Status
  }

  type SchemaFieldEntity implements Entity {
    urn: String!
    type: EntityType!
    fieldPath: String!
    parent: Entity!
    status: Status
    deprecation: Deprecation
  }

  enum QueryLanguage {
    SQL
  }

  enum QuerySource {
    MANUAL
    SYSTEM
  }

  type QueryStatement {
    value: String!
    language: QueryLanguage!
  }

  type QueryProperties {
    statement: QueryStatement!
    source: QuerySource!
    name: String
    description: String
    created: AuditStamp!
    lastModified: AuditStamp!
  }

  type QueryEntity implements Entity {
    urn: String!
    type: EntityType!
    properties: QueryProperties
  }

  type Role implements Entity {
    urn: String!
    type: EntityType!
    id: String!
  }

  "A slice of DataHub's DocumentInfo: the title (what \`datahub search\` shows of a document)."
  type DocumentInfo {
    title: String
  }

  type Document implements Entity {
    urn: String!
    type: EntityType!
    exists: Boolean
    "The document's first sub type, as DataHub's Document.subType reads it."
    subType: String
    info: DocumentInfo
  }

  type StructuredPropertyDefinition {
    qualifiedName: String!
    displayName: String
    description: String
  }

  type StructuredPropertyEntity implements Entity {
    urn: String!
    type: EntityType!
    exists: Boolean
    definition: StructuredPropertyDefinition!
    "Where the property is shown; null when none were set."
    settings: StructuredPropertySettings
  }

  "DataHub's StructuredPropertySettings: each flag false unless set."
  type StructuredPropertySettings {
    isHidden: Boolean!
    showInSearchFilters: Boolean!
    showInAssetSummary: Boolean!
    hideInAssetSummaryWhenEmpty: Boolean!
    showAsAssetBadge: Boolean!
    showInColumnsTable: Boolean!
  }

  type OwnershipTypeInfo {
    name: String!
    description: String
  }

  type OwnershipTypeEntity implements Entity {
    urn: String!
    type: EntityType!
    info: OwnershipTypeInfo
    status: Status
  }

  type ExecutionRequest implements Entity {
    urn: String!
    type: EntityType!
    id: String!
  }
`;

const userInfo = fromAspect('corpUserInfo', (v) => ({ ...v, active: v.active === true }));
const platformInfo = fromAspect('dataPlatformInfo', (v) => ({
  ...v,
  type: str(v.type) ?? 'OTHERS',
  datasetNameDelimiter: str(v.datasetNameDelimiter) ?? '',
}));
const stamp = (v: unknown) => ({
  time: typeof (v as Json | undefined)?.time === 'number' ? (v as Json).time : 0,
  actor: str((v as Json | undefined)?.actor),
});

const resolvers: Resolvers = {
  Query: { entity: (_s, args: { urn: string }, ctx) => entityRef(ctx, args.urn) },
  CorpUser: {
    ...COMMON,
    username: keyField('username'),
    properties: userInfo,
    info: userInfo,
    editableProperties: fromAspect('corpUserEditableInfo'),
    exists: existsField,
  },
  DataPlatform: {
    ...COMMON,
    lastIngested: () => null,
    name: keyField('platformName'),
    properties: platformInfo,
    info: platformInfo,
    displayName: fromAspect('dataPlatformInfo', (v) => str(v.displayName)),
  },
  DataPlatformInstance: {
    ...COMMON,
    platform: platformFromKey('platform'),
    instanceId: keyField('instance'),
    status: statusField,
    deprecation: deprecationField,
  },
  Application: { ...COMMON, properties: fromAspect('applicationProperties', (v, e) => named(v.name, keyPart(e, 'id'), v)) },
  MLModel: {
    ...COMMON,
    lastIngested: () => null,
    properties: mlProperties('mlModelProperties'),
    name: keyField('name'),
    platform: platformFromKey('platform'),
    status: statusField,
    deprecation: deprecationField,
    exists: existsField,
  },
  MLModelGroup: {
    ...COMMON,
    lastIngested: () => null,
    properties: mlProperties('mlModelGroupProperties'),
    name: keyField('name'),
    platform: platformFromKey('platform'),
    status: statusField,
    deprecation: deprecationField,
    exists: existsField,
  },
  MLFeatureTable: {
    ...COMMON,
    lastIngested: () => null,
    properties: mlProperties('mlFeatureTableProperties'),
    name: keyField('name'),
    platform: platformFromKey('platform'),
    status: statusField,
    deprecation: deprecationField,
    exists: existsField,
  },
  MLFeature: {
    ...COMMON,
    lastIngested: () => null,
    properties: mlProperties('mlFeatureProperties'),
    name: keyField('name'),
    featureNamespace: keyField('featureNamespace'),
    status: statusField,
    deprecation: deprecationField,
    exists: existsField,
  },
  MLPrimaryKey: {
    ...COMMON,
    lastIngested: () => null,
    properties: mlProperties('mlPrimaryKeyProperties'),
    name: keyField('name'),
    featureNamespace: keyField('featureNamespace'),
    status: statusField,
    deprecation: deprecationField,
    exists: existsField,
  },
  Notebook: {
    ...COMMON,
    tool: keyField('notebookTool'),
    notebookId: keyField('notebookId'),
    status: statusField,
    subTypes: subTypesField,
    exists: existsField,
  },
  BusinessAttribute: { ...COMMON, status: statusField },
  SchemaFieldEntity: {
    ...COMMON,
    fieldPath: keyField('fieldPath'),
    parent: refField((e: EntitySource) => keyPart(e, 'parent')),
    status: statusField,
    deprecation: deprecationField,
  },
  QueryEntity: {
    ...COMMON,
    properties: fromAspect('queryProperties', (v) => {
      const statement = (v.statement as Json | undefined) ?? {};
      return {
        statement: { value: str(statement.value) ?? '', language: str(statement.language) ?? 'SQL' },
        source: str(v.source) ?? 'MANUAL',
        name: str(v.name),
        description: str(v.description),
        created: stamp(v.created),
        lastModified: stamp(v.lastModified),
      };
    }),
  },
  Role: { ...COMMON, id: keyField('id') },
  Document: {
    ...COMMON,
    exists: existsField,
    subType: fromAspect('subTypes', (v) => (Array.isArray(v.typeNames) ? (str(v.typeNames[0]) ?? null) : null)),
    info: fromAspect('documentInfo', (v) => ({ title: str(v.title) })),
  },
  StructuredPropertyEntity: {
    ...COMMON,
    exists: existsField,
    definition: async (e: EntitySource, a, ctx, info) => {
      const definition = await fromAspect('propertyDefinition')(e, a, ctx, info);
      const v = (definition ?? {}) as Json;
      return { qualifiedName: str(v.qualifiedName) ?? keyPart(e, 'id') ?? '', displayName: str(v.displayName), description: str(v.description) };
    },
    settings: fromAspect('structuredPropertySettings', (v) => Object.fromEntries(SETTINGS_FLAGS.map((f) => [f, v[f] === true]))),
  },
  OwnershipTypeEntity: {
    ...COMMON,
    info: fromAspect('ownershipTypeInfo', (v, e) => ({ name: str(v.name) ?? keyPart(e, 'id') ?? '', description: str(v.description) })),
    status: statusField,
  },
  ExecutionRequest: { ...COMMON, id: keyField('id') },
};

export const entitiesModule: GraphqlModule = { typeDefs, resolvers };
