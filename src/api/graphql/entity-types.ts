import { findEntitySpec } from '../../catalog/registry/index.ts';

/**
 * DataHub's GraphQL `EntityType` enum, each value with the registry entity it
 * names (DataHub's EntityTypeMapper) and the GraphQL object type Almanac
 * answers it with. A value without a type can be named in inputs (DataHub's
 * enum is complete, so clients' variables validate) but Almanac does not
 * return entities of it; search refuses it by name.
 */
interface EntityTypeRow {
  readonly value: string;
  readonly entity: string | null;
  readonly typename: string | null;
}

const row = (value: string, entity: string | null, typename: string | null = null): EntityTypeRow => ({ value, entity, typename });

export const ENTITY_TYPE_ROWS: readonly EntityTypeRow[] = [
  row('DOMAIN', 'domain', 'Domain'),
  row('DATASET', 'dataset', 'Dataset'),
  row('CORP_USER', 'corpuser', 'CorpUser'),
  row('CORP_GROUP', 'corpGroup', 'CorpGroup'),
  row('DATA_PLATFORM', 'dataPlatform', 'DataPlatform'),
  row('ER_MODEL_RELATIONSHIP', 'erModelRelationship', 'ERModelRelationship'),
  row('DASHBOARD', 'dashboard', 'Dashboard'),
  row('NOTEBOOK', 'notebook', 'Notebook'),
  row('CHART', 'chart', 'Chart'),
  row('DATA_FLOW', 'dataFlow', 'DataFlow'),
  row('DATA_JOB', 'dataJob', 'DataJob'),
  row('TAG', 'tag', 'Tag'),
  row('GLOSSARY_TERM', 'glossaryTerm', 'GlossaryTerm'),
  row('GLOSSARY_NODE', 'glossaryNode', 'GlossaryNode'),
  row('CONTAINER', 'container', 'Container'),
  row('MLMODEL', 'mlModel', 'MLModel'),
  row('MLMODEL_GROUP', 'mlModelGroup', 'MLModelGroup'),
  row('MLFEATURE_TABLE', 'mlFeatureTable', 'MLFeatureTable'),
  row('MLFEATURE', 'mlFeature', 'MLFeature'),
  row('MLPRIMARY_KEY', 'mlPrimaryKey', 'MLPrimaryKey'),
  row('INGESTION_SOURCE', 'dataHubIngestionSource'),
  row('EXECUTION_REQUEST', 'dataHubExecutionRequest', 'ExecutionRequest'),
  row('ASSERTION', 'assertion', 'Assertion'),
  row('DATA_PROCESS_INSTANCE', 'dataProcessInstance', 'DataProcessInstance'),
  row('DATA_PLATFORM_INSTANCE', 'dataPlatformInstance', 'DataPlatformInstance'),
  row('ACCESS_TOKEN', 'dataHubAccessToken'),
  row('TEST', 'test', 'Test'),
  row('DATAHUB_POLICY', 'dataHubPolicy'),
  row('DATAHUB_ROLE', 'dataHubRole', 'DataHubRole'),
  row('POST', 'post', 'Post'),
  row('SCHEMA_FIELD', 'schemaField', 'SchemaFieldEntity'),
  row('DATAHUB_VIEW', 'dataHubView', 'DataHubView'),
  row('QUERY', 'query', 'QueryEntity'),
  row('DATA_PRODUCT', 'dataProduct', 'DataProduct'),
  row('CUSTOM_OWNERSHIP_TYPE', 'ownershipType', 'OwnershipTypeEntity'),
  row('DATAHUB_CONNECTION', 'dataHubConnection'),
  row('INCIDENT', 'incident', 'Incident'),
  row('ROLE', 'role', 'Role'),
  row('DATA_CONTRACT', 'dataContract', 'DataContract'),
  row('STRUCTURED_PROPERTY', 'structuredProperty', 'StructuredPropertyEntity'),
  row('FORM', 'form', 'Form'),
  row('DATA_TYPE', 'dataType', 'DataTypeEntity'),
  row('ENTITY_TYPE', 'entityType', 'EntityTypeEntity'),
  row('RESTRICTED', null),
  row('OTHER', null),
  row('BUSINESS_ATTRIBUTE', 'businessAttribute', 'BusinessAttribute'),
  row('VERSION_SET', 'versionSet', 'VersionSet'),
  row('APPLICATION', 'application', 'Application'),
  row('DOCUMENT', 'document', 'Document'),
  row('DATAHUB_PAGE_TEMPLATE', 'dataHubPageTemplate'),
  row('DATAHUB_PAGE_MODULE', 'dataHubPageModule'),
  row('DATAHUB_FILE', 'dataHubFile'),
  row('METRIC', 'metric', 'Metric'),
  row('SEMANTIC_MODEL', 'semanticModel', 'SemanticModel'),
];

// Every named entity must be in the registry: a typo here fails at start, not on a request.
for (const r of ENTITY_TYPE_ROWS) {
  if (r.entity !== null && !findEntitySpec(r.entity)) throw new Error(`EntityType ${r.value} names ${r.entity}, which the registry lacks`);
}

const BY_VALUE = new Map(ENTITY_TYPE_ROWS.map((r) => [r.value, r]));
const BY_ENTITY = new Map(ENTITY_TYPE_ROWS.filter((r) => r.entity !== null).map((r) => [r.entity!.toLowerCase(), r]));

/** The entity types DataHub searches when a search names none (SearchUtils.SEARCHABLE_ENTITY_TYPES). */
export const DEFAULT_SEARCH_TYPES: readonly string[] = [
  'DATASET',
  'DASHBOARD',
  'CHART',
  'MLMODEL',
  'MLMODEL_GROUP',
  'MLFEATURE_TABLE',
  'MLFEATURE',
  'MLPRIMARY_KEY',
  'DATA_FLOW',
  'DATA_JOB',
  'GLOSSARY_TERM',
  'GLOSSARY_NODE',
  'TAG',
  'ROLE',
  'CORP_USER',
  'CORP_GROUP',
  'CONTAINER',
  'DOMAIN',
  'DATA_PRODUCT',
  'NOTEBOOK',
  'BUSINESS_ATTRIBUTE',
  'SCHEMA_FIELD',
  'APPLICATION',
  'DOCUMENT',
];

/** The SDL of the enum, from the table. */
export const ENTITY_TYPE_ENUM_SDL = `enum EntityType {\n${ENTITY_TYPE_ROWS.map((r) => `  ${r.value}`).join('\n')}\n}`;

/** The registry entity an enum value names, or undefined (RESTRICTED, OTHER). */
export const entityOfType = (value: string): string | undefined => BY_VALUE.get(value)?.entity ?? undefined;

/** The enum value of a registry entity type; OTHER for one DataHub's GraphQL does not name. */
export const typeOfEntity = (entity: string): string => BY_ENTITY.get(entity.toLowerCase())?.value ?? 'OTHER';

/** The GraphQL object type Almanac answers a registry entity with, or undefined. */
export const typenameOfEntity = (entity: string): string | undefined => BY_ENTITY.get(entity.toLowerCase())?.typename ?? undefined;
