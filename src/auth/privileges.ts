/** DataHub's privilege names (PoliciesConfig), the ones Almanac enforces, and Almanac's own (marked). */
export const PRIVILEGES = [
  'EDIT_ENTITY',
  'EDIT_DEPRECATION_PRIVILEGE',
  'TRUNCATE_TIMESERIES_INDEX_PRIVILEGE',
  'GET_TIMESERIES_INDEX_SIZES_PRIVILEGE',
  'GET_ES_TASK_STATUS_PRIVILEGE',
  'RESTORE_INDICES_PRIVILEGE',
  'MANAGE_SYSTEM_OPERATIONS',
  'GENERATE_PERSONAL_ACCESS_TOKENS',
  'MANAGE_ACCESS_TOKENS',
  'MANAGE_POLICIES',
  'MANAGE_USERS_AND_GROUPS',
  'MANAGE_INGESTION',
  'MANAGE_SECRETS',
  'MANAGE_GLOBAL_SETTINGS',
  'APPLY_RETENTION_PRIVILEGE',
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
export const METADATA_PRIVILEGES: readonly Privilege[] = ['EDIT_ENTITY', 'EDIT_DEPRECATION_PRIVILEGE'];

export const isPrivilege = (name: string): name is Privilege => (PRIVILEGES as readonly string[]).includes(name);
