import { datasetHref } from './format.ts';

/** What the console calls each GraphQL entity type, in the order the search page offers them. */
export const TYPE_LABELS: Readonly<Record<string, string>> = {
  DATASET: 'Datasets',
  DASHBOARD: 'Dashboards',
  CHART: 'Charts',
  DATA_FLOW: 'Pipelines',
  DATA_JOB: 'Tasks',
  CONTAINER: 'Containers',
  GLOSSARY_TERM: 'Glossary terms',
  GLOSSARY_NODE: 'Term groups',
  TAG: 'Tags',
  DOMAIN: 'Domains',
  DATA_PRODUCT: 'Data products',
  CORP_USER: 'Users',
  CORP_GROUP: 'Groups',
  MLMODEL: 'ML models',
  MLMODEL_GROUP: 'ML model groups',
  MLFEATURE_TABLE: 'Feature tables',
  MLFEATURE: 'Features',
  MLPRIMARY_KEY: 'Primary keys',
  NOTEBOOK: 'Notebooks',
  ROLE: 'Roles',
};

/** One of a type, as a result's badge says it. */
export const SINGULAR: Readonly<Record<string, string>> = {
  DATASET: 'Dataset',
  DASHBOARD: 'Dashboard',
  CHART: 'Chart',
  DATA_FLOW: 'Pipeline',
  DATA_JOB: 'Task',
  CONTAINER: 'Container',
  GLOSSARY_TERM: 'Glossary term',
  GLOSSARY_NODE: 'Term group',
  TAG: 'Tag',
  DOMAIN: 'Domain',
  DATA_PRODUCT: 'Data product',
  CORP_USER: 'User',
  CORP_GROUP: 'Group',
  MLMODEL: 'ML model',
  MLMODEL_GROUP: 'ML model group',
  MLFEATURE_TABLE: 'Feature table',
  MLFEATURE: 'Feature',
  MLPRIMARY_KEY: 'Primary key',
  NOTEBOOK: 'Notebook',
  ROLE: 'Role',
};

export const typeLabel = (type: string): string => TYPE_LABELS[type] ?? type;
export const singular = (type: string): string => SINGULAR[type] ?? type;

/** The urn's entity name (`dataset`, `glossaryTerm`, ...): what OpenAPI's entity paths take. */
export const entityName = (urn: string): string => /^urn:li:([^:]+):/.exec(urn)?.[1] ?? '';

/** Where an entity's page is: datasets have their own, every other type the general one. */
export const entityHref = (urn: string): string => (entityName(urn) === 'dataset' ? datasetHref(urn) : `#/entity/${encodeURIComponent(urn)}`);

/** The address of an entity's lineage graph, with how many hops each way are open. */
export const lineageHref = (urn: string, up = 1, down = 1): string =>
  `#/lineage/${encodeURIComponent(urn)}?${new URLSearchParams({ up: String(up), down: String(down) })}`;

/** The entity types that have lineage (DataHub's `lineage` field). */
export const LINEAGE_TYPES: readonly string[] = ['DATASET', 'CHART', 'DASHBOARD', 'DATA_JOB', 'DATA_FLOW', 'MLMODEL'];
