import type { Privilege } from './privileges.ts';

/** DataHub's message for a GraphQL operation the caller may not perform. */
export const UNAUTHORIZED_MESSAGE = 'Unauthorized to perform this action. Please contact your DataHub administrator.';

/** What a refusal message may name. */
export interface RefusalSubject {
  readonly actor: string;
  /** The resource refused, for operations on an entity. */
  readonly urn: string;
}

/** DataHub's refusal of a write to an entity (AuthUtil). */
const MODIFY_ENTITY = (s: RefusalSubject): string => `User ${s.actor} is unauthorized to modify entity: ${s.urn}`;

export interface OperationRule {
  /** Any one of these allows the operation. */
  readonly anyOf: readonly Privilege[];
  /**
   * 'resource': the privilege is checked on the entity the operation touches, so a
   * metadata policy scoped to that entity (by urn, type, owner, tag, domain) can grant it.
   * 'platform': no entity; only roles and policies that need no resource grant it.
   */
  readonly on: 'resource' | 'platform';
  /** DataHub's refusal message, word for word (typos included) where DataHub has one. */
  readonly message: string | ((s: RefusalSubject) => string);
}

/**
 * Every operation Almanac guards, with the privileges that allow it and DataHub's
 * refusal message. Call sites name the operation, so a new one needs an entry here
 * before it compiles, and the privilege and message are written once.
 */
export const OPERATIONS = {
  /** Ingesting aspects (Rest.li ingestProposal, OpenAPI writes): DataHub's AuthUtil check. */
  writeEntity: { anyOf: ['EDIT_ENTITY'], on: 'resource', message: (s) => `User ${s.actor} is unauthorized to modify entity: ${s.urn}` },
  /** Writing a policy's aspects through the aspect APIs: a policy grants privileges, so only policy managers write one. */
  writePolicyEntity: { anyOf: ['MANAGE_POLICIES'], on: 'platform', message: (s) => `User ${s.actor} is unauthorized to modify entity: ${s.urn}` },
  deleteEntity: { anyOf: ['EDIT_ENTITY'], on: 'resource', message: (s) => `User ${s.actor} is unauthorized to delete entity: ${s.urn}` },
  /** Deleting (part of) a user or group: never an Editor's call, so nobody locks the admins out. */
  deleteIdentity: {
    anyOf: ['MANAGE_USERS_AND_GROUPS'],
    on: 'platform',
    message: (s) => `User ${s.actor} is unauthorized to delete entity: ${s.urn}`,
  },
  deletePolicyEntity: { anyOf: ['MANAGE_POLICIES'], on: 'platform', message: (s) => `User ${s.actor} is unauthorized to delete entity: ${s.urn}` },
  /** updateDeprecation / batchUpdateDeprecation: DataHub's DeprecationUtils accepts either privilege on the entity. */
  updateDeprecation: { anyOf: ['EDIT_ENTITY', 'EDIT_DEPRECATION_PRIVILEGE'], on: 'resource', message: UNAUTHORIZED_MESSAGE },
  /**
   * The curation mutations (tags, terms, owners, descriptions, domains): EDIT_ENTITY or the one
   * privilege DataHub's resolver names for that kind of change (LabelUtils, OwnerUtils,
   * DescriptionUtils, DomainUtils); a dataset field has privileges of its own.
   */
  editTags: { anyOf: ['EDIT_ENTITY', 'EDIT_ENTITY_TAGS'], on: 'resource', message: UNAUTHORIZED_MESSAGE },
  editFieldTags: { anyOf: ['EDIT_ENTITY', 'EDIT_DATASET_COL_TAGS'], on: 'resource', message: UNAUTHORIZED_MESSAGE },
  editTerms: { anyOf: ['EDIT_ENTITY', 'EDIT_ENTITY_GLOSSARY_TERMS'], on: 'resource', message: UNAUTHORIZED_MESSAGE },
  editFieldTerms: { anyOf: ['EDIT_ENTITY', 'EDIT_DATASET_COL_GLOSSARY_TERMS'], on: 'resource', message: UNAUTHORIZED_MESSAGE },
  editOwners: {
    anyOf: ['EDIT_ENTITY', 'EDIT_ENTITY_OWNERS'],
    on: 'resource',
    message: 'Unauthorized to update owners. Please contact your DataHub administrator.',
  },
  editDescription: { anyOf: ['EDIT_ENTITY', 'EDIT_ENTITY_DOCS'], on: 'resource', message: UNAUTHORIZED_MESSAGE },
  editFieldDescription: { anyOf: ['EDIT_ENTITY', 'EDIT_DATASET_COL_DESCRIPTION'], on: 'resource', message: UNAUTHORIZED_MESSAGE },
  editDomains: { anyOf: ['EDIT_ENTITY', 'EDIT_DOMAINS_PRIVILEGE'], on: 'resource', message: UNAUTHORIZED_MESSAGE },
  /** DataHub's canCreateDomains and canManageDomains (AuthorizationUtils): privileges on the platform. */
  createDomain: { anyOf: ['CREATE_DOMAINS', 'MANAGE_DOMAINS'], on: 'platform', message: UNAUTHORIZED_MESSAGE },
  manageDomains: { anyOf: ['MANAGE_DOMAINS'], on: 'platform', message: UNAUTHORIZED_MESSAGE },
  /** deleteDomain without MANAGE_DOMAINS: deleting that entity (DataHub's canDeleteEntity). */
  deleteDomainEntity: { anyOf: ['EDIT_ENTITY'], on: 'resource', message: UNAUTHORIZED_MESSAGE },
  /** DataHub's GlossaryUtils.canManageChildrenEntities: MANAGE_GLOSSARIES, or managing the children of the parent node. */
  manageGlossaries: { anyOf: ['MANAGE_GLOSSARIES'], on: 'platform', message: UNAUTHORIZED_MESSAGE },
  manageGlossaryChildren: { anyOf: ['MANAGE_GLOSSARY_CHILDREN', 'MANAGE_ALL_GLOSSARY_CHILDREN'], on: 'resource', message: UNAUTHORIZED_MESSAGE },
  /** DataHub's DataProductAuthorizationUtils: managing a domain's products, or editing an asset's product. */
  manageDataProducts: { anyOf: ['EDIT_ENTITY', 'MANAGE_DATA_PRODUCTS'], on: 'resource', message: UNAUTHORIZED_MESSAGE },
  editDataProducts: { anyOf: ['EDIT_ENTITY', 'EDIT_ENTITY_DATA_PRODUCTS'], on: 'resource', message: UNAUTHORIZED_MESSAGE },
  /** addGroupMembers and removeGroupMembers without MANAGE_USERS_AND_GROUPS: EDIT_GROUP_MEMBERS on the group. */
  editGroupMembers: { anyOf: ['EDIT_GROUP_MEMBERS'], on: 'resource', message: UNAUTHORIZED_MESSAGE },
  /** updateLineage, on each end of each edge: DataHub's refusal names the entity and its type. */
  editLineage: {
    anyOf: ['EDIT_ENTITY', 'EDIT_LINEAGE'],
    on: 'resource',
    message: (s) => `Unauthorized to edit ${s.urn} lineage for ${s.urn.split(':')[2] ?? ''}`,
  },
  /** raiseIncident and updateIncidentStatus, on the entities the incident is raised on. */
  editIncidents: { anyOf: ['EDIT_ENTITY', 'EDIT_ENTITY_INCIDENTS'], on: 'resource', message: UNAUTHORIZED_MESSAGE },
  /** upsertStructuredProperties and removeStructuredProperties: DataHub's canEditProperties, and its message (typo included). */
  editProperties: {
    anyOf: ['EDIT_ENTITY', 'EDIT_ENTITY_PROPERTIES'],
    on: 'resource',
    message: (s) => `Not authorized to update properties on the gives urn ${s.urn}`,
  },
  manageStructuredProperties: {
    anyOf: ['MANAGE_STRUCTURED_PROPERTIES'],
    on: 'platform',
    message: 'Unable to create structured property. Please contact your admin.',
  },
  /**
   * setLogicalParent, on the child and on the parent (DataHub's LogicalParentAuthorizationValidator): EDIT_ENTITY on
   * that entity, or for a schema field on its dataset.
   */
  editLogicalParent: { anyOf: ['EDIT_ENTITY'], on: 'resource', message: (s) => `Unauthorized to modify logicalParent on entity: ${s.urn}` },
  /** updateStructuredProperty and deleteStructuredProperty: the same privilege, DataHub's own message for each. */
  updateStructuredProperty: {
    anyOf: ['MANAGE_STRUCTURED_PROPERTIES'],
    on: 'platform',
    message: 'Unable to update structured property. Please contact your admin.',
  },
  deleteStructuredProperty: {
    anyOf: ['MANAGE_STRUCTURED_PROPERTIES'],
    on: 'platform',
    message: 'Unable to delete structured property. Please contact your admin.',
  },
  /** DataHub's canManageGlobalViews: creating, changing and deleting global views. */
  manageGlobalViews: { anyOf: ['MANAGE_GLOBAL_VIEWS'], on: 'platform', message: UNAUTHORIZED_MESSAGE },
  editLinks: { anyOf: ['EDIT_ENTITY', 'EDIT_ENTITY_DOC_LINKS'], on: 'resource', message: UNAUTHORIZED_MESSAGE },
  /** /runs?action=rollback: DataHub asks for MANAGE on ingestion sources. */
  rollbackRun: { anyOf: ['MANAGE_INGESTION'], on: 'platform', message: 'User is unauthorized to update entity' },
  rollbackDeletes: { anyOf: ['EDIT_ENTITY'], on: 'resource', message: 'User is NOT unauthorized to delete entities.' },
  rollbackIdentityDeletes: { anyOf: ['MANAGE_USERS_AND_GROUPS'], on: 'platform', message: 'User is NOT unauthorized to delete entities.' },
  truncateTimeseries: {
    anyOf: ['TRUNCATE_TIMESERIES_INDEX_PRIVILEGE'],
    on: 'platform',
    message: 'User is unauthorized to truncate timeseries index',
  },
  /** DataHub's applyRetention action (EntityResource): its privilege and message. */
  applyRetention: { anyOf: ['APPLY_RETENTION_PRIVILEGE'], on: 'platform', message: 'User is unauthorized to apply retention.' },
  /** Setting, deleting and running retention policies (Almanac's /api/retention): they delete data on a schedule. */
  manageRetention: {
    anyOf: ['APPLY_RETENTION_PRIVILEGE', 'MANAGE_SYSTEM_OPERATIONS'],
    on: 'platform',
    message: 'User is unauthorized to manage retention policies.',
  },
  /** Reading retention policies, their preview and their runs. */
  viewRetention: {
    anyOf: ['APPLY_RETENTION_PRIVILEGE', 'MANAGE_SYSTEM_OPERATIONS', 'GET_TIMESERIES_INDEX_SIZES_PRIVILEGE'],
    on: 'platform',
    message: 'User is unauthorized to view retention policies.',
  },
  /** Webhook subscriptions and their delivery log (Almanac's): a subscription can send events anywhere it names. */
  /** DataHub's audit search: `isAPIAuthorized(ANALYTICS, READ)`, refused with its message. */
  searchAuditEvents: { anyOf: ['VIEW_ANALYTICS'], on: 'platform', message: (s) => `${s.actor} is unauthorized to READ ANALYTICS.` },
  /** DataHub's events API: PlatformEvent_v1 with GET_PLATFORM_EVENTS, the change log topics with GET_METADATA_CHANGE_LOG_EVENTS, either with GET_TOPIC_EVENTS. */
  readPlatformEvents: {
    anyOf: ['GET_TOPIC_EVENTS', 'GET_PLATFORM_EVENTS'],
    on: 'platform',
    message: 'User is unauthorized to read PlatformEvent_v1.',
  },
  readChangeLogEvents: {
    anyOf: ['GET_TOPIC_EVENTS', 'GET_METADATA_CHANGE_LOG_EVENTS'],
    on: 'platform',
    message: 'User is unauthorized to read the metadata change log.',
  },
  manageWebhooks: { anyOf: ['MANAGE_WEBHOOKS_PRIVILEGE'], on: 'platform', message: 'User is unauthorized to manage webhooks.' },
  getIndexSizes: {
    anyOf: ['GET_TIMESERIES_INDEX_SIZES_PRIVILEGE', 'MANAGE_SYSTEM_OPERATIONS'],
    on: 'platform',
    message: 'User is unauthorized to get index sizes.',
  },
  /** DataHub's raw search documents (ElasticsearchRawController): MANAGE_SYSTEM_OPERATIONS only. */
  readRawSearchDocuments: {
    anyOf: ['MANAGE_SYSTEM_OPERATIONS'],
    on: 'platform',
    message: (s) => `${s.actor} is not authorized to get raw search documents`,
  },
  /** DataHub's system information (SystemInfoController): MANAGE_SYSTEM_OPERATIONS only. */
  readSystemInfo: {
    anyOf: ['MANAGE_SYSTEM_OPERATIONS'],
    on: 'platform',
    message: (s) => `${s.actor} is not authorized for system operations.`,
  },
  getTaskStatus: {
    anyOf: ['GET_ES_TASK_STATUS_PRIVILEGE', 'MANAGE_SYSTEM_OPERATIONS'],
    on: 'platform',
    message: 'User is unauthorized to get ES task status',
  },
  assignRoles: { anyOf: ['MANAGE_POLICIES'], on: 'platform', message: UNAUTHORIZED_MESSAGE },
  managePolicies: { anyOf: ['MANAGE_POLICIES'], on: 'platform', message: UNAUTHORIZED_MESSAGE },
  /** Ingesting a user's suspension (corpUserStatus) or soft deletion (status): managing users, whatever the route. */
  writeIdentityAccess: {
    anyOf: ['MANAGE_USERS_AND_GROUPS'],
    on: 'platform',
    message: (s) => `User ${s.actor} is unauthorized to modify entity: ${s.urn}`,
  },
  /** Writing the other aspects that carry authority (auth/authority-aspects.ts): each needs DataHub's privilege for it. */
  writeAccessTokenRecord: { anyOf: ['MANAGE_ACCESS_TOKENS'], on: 'platform', message: MODIFY_ENTITY },
  writeServiceAccountMark: { anyOf: ['MANAGE_SERVICE_ACCOUNTS'], on: 'platform', message: MODIFY_ENTITY },
  writeSecret: { anyOf: ['MANAGE_SECRETS'], on: 'platform', message: MODIFY_ENTITY },
  writeIngestionSource: { anyOf: ['MANAGE_INGESTION'], on: 'platform', message: MODIFY_ENTITY },
  writeGlobalSettings: { anyOf: ['MANAGE_GLOBAL_SETTINGS'], on: 'platform', message: MODIFY_ENTITY },
  writeRetentionConfig: { anyOf: ['APPLY_RETENTION_PRIVILEGE'], on: 'platform', message: MODIFY_ENTITY },
  writeSystemState: { anyOf: ['MANAGE_SYSTEM_OPERATIONS'], on: 'platform', message: MODIFY_ENTITY },
  manageUsers: { anyOf: ['MANAGE_USERS_AND_GROUPS'], on: 'platform', message: UNAUTHORIZED_MESSAGE },
  manageAccessTokens: { anyOf: ['MANAGE_ACCESS_TOKENS'], on: 'platform', message: UNAUTHORIZED_MESSAGE },
  /** DataHub's canManageServiceAccounts: every service account action and their tokens (each refusal names its action). */
  manageServiceAccounts: { anyOf: ['MANAGE_SERVICE_ACCOUNTS'], on: 'platform', message: UNAUTHORIZED_MESSAGE },
  generatePersonalAccessToken: { anyOf: ['GENERATE_PERSONAL_ACCESS_TOKENS'], on: 'platform', message: UNAUTHORIZED_MESSAGE },
} as const satisfies Record<string, OperationRule>;

export type Operation = keyof typeof OPERATIONS;

export const refusalMessage = (operation: Operation, subject: RefusalSubject): string => {
  const message: OperationRule['message'] = OPERATIONS[operation].message;
  return typeof message === 'string' ? message : message(subject);
};
