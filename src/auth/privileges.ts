/** The privileges DataHub grants on a resource (an entity) rather than on the platform: the curation ones among them. */
const METADATA = [
  'EDIT_ENTITY',
  'EDIT_DEPRECATION_PRIVILEGE',
  'EDIT_ENTITY_TAGS',
  'EDIT_ENTITY_GLOSSARY_TERMS',
  'EDIT_ENTITY_OWNERS',
  'EDIT_ENTITY_DOCS',
  'EDIT_ENTITY_DOC_LINKS',
  'EDIT_DOMAINS_PRIVILEGE',
  'EDIT_DATASET_COL_TAGS',
  'EDIT_DATASET_COL_GLOSSARY_TERMS',
  'EDIT_DATASET_COL_DESCRIPTION',
  'MANAGE_GLOSSARY_CHILDREN',
  'MANAGE_ALL_GLOSSARY_CHILDREN',
  'MANAGE_DATA_PRODUCTS',
  'EDIT_ENTITY_DATA_PRODUCTS',
  'EDIT_GROUP_MEMBERS',
  'EDIT_LINEAGE',
  'EDIT_ENTITY_INCIDENTS',
  'EDIT_ENTITY_PROPERTIES',
] as const;

/** DataHub's privilege names (PoliciesConfig), the ones Almanac enforces, and Almanac's own (marked). */
export const PRIVILEGES = [
  ...METADATA,
  'TRUNCATE_TIMESERIES_INDEX_PRIVILEGE',
  'GET_TIMESERIES_INDEX_SIZES_PRIVILEGE',
  'GET_ES_TASK_STATUS_PRIVILEGE',
  'RESTORE_INDICES_PRIVILEGE',
  'MANAGE_SYSTEM_OPERATIONS',
  'GENERATE_PERSONAL_ACCESS_TOKENS',
  'MANAGE_ACCESS_TOKENS',
  'MANAGE_SERVICE_ACCOUNTS',
  'MANAGE_POLICIES',
  'MANAGE_USERS_AND_GROUPS',
  'MANAGE_INGESTION',
  'MANAGE_SECRETS',
  'MANAGE_GLOBAL_SETTINGS',
  'APPLY_RETENTION_PRIVILEGE',
  'CREATE_DOMAINS',
  'MANAGE_DOMAINS',
  'MANAGE_GLOSSARIES',
  'MANAGE_STRUCTURED_PROPERTIES',
  'MANAGE_GLOBAL_VIEWS',
  /** DataHub's GET_ANALYTICS_PRIVILEGE, which its audit search (ApiGroup.ANALYTICS, READ) requires. */
  'VIEW_ANALYTICS',
  /** DataHub's events API (ExternalEventsController): Entity Change Events, the change log, or any topic. */
  'GET_PLATFORM_EVENTS',
  'GET_METADATA_CHANGE_LOG_EVENTS',
  'GET_TOPIC_EVENTS',
  /** Almanac's: webhook subscriptions send change events to URLs of the subscriber's choosing (Admin only by default). */
  'MANAGE_WEBHOOKS_PRIVILEGE',
] as const;

export type Privilege = (typeof PRIVILEGES)[number];

/** The privileges DataHub grants on a resource (an entity) rather than on the platform. */
export const METADATA_PRIVILEGES: readonly Privilege[] = METADATA;

export const isPrivilege = (name: string): name is Privilege => (PRIVILEGES as readonly string[]).includes(name);
