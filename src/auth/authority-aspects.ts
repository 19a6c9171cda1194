import type { Operation } from './operations.ts';

/**
 * Aspects that carry authority: writing one grants access, changes who may act, or holds a credential. Each needs the
 * operation named here on every write path (Rest.li, OpenAPI, PATCH, batch, the snapshot form, rollback, delete), in
 * addition to EDIT_ENTITY on the entity: an Editor may describe a user, never put them in a group.
 * Keys are `entityType/aspect`, entity types lower-cased (ingestion matches them case-insensitively);
 * `entityType/*` covers every aspect of that type.
 */
const AUTHORITY_ASPECTS: ReadonlyMap<string, Operation> = new Map<string, Operation>([
  // Who a user is to the authorizer: groups (policies name groups), roles, suspension, soft deletion, password.
  ['corpuser/groupmembership', 'writeIdentityAccess'],
  ['corpuser/nativegroupmembership', 'writeIdentityAccess'],
  ['corpuser/rolemembership', 'writeIdentityAccess'],
  ['corpuser/corpuserstatus', 'writeIdentityAccess'],
  ['corpuser/status', 'writeIdentityAccess'],
  ['corpuser/corpusercredentials', 'writeIdentityAccess'],
  // The SERVICE_ACCOUNT sub type lets whoever manages service accounts mint the user's tokens and delete it.
  ['corpuser/subtypes', 'writeServiceAccountMark'],
  // A group's role passes to every member; its info lists members and admins in DataHub's model.
  ['corpgroup/rolemembership', 'writeIdentityAccess'],
  ['corpgroup/corpgroupinfo', 'writeIdentityAccess'],
  ['corpgroup/status', 'writeIdentityAccess'],
  ['invitetoken/*', 'writeIdentityAccess'],
  // Privileges themselves.
  ['datahubpolicy/*', 'writePolicyEntity'],
  ['datahubrole/*', 'writePolicyEntity'],
  // Credentials and what runs with them.
  ['datahubaccesstoken/*', 'writeAccessTokenRecord'],
  ['datahubsecret/*', 'writeSecret'],
  ['datahubconnection/*', 'writeSecret'],
  ['datahubingestionsource/*', 'writeIngestionSource'],
  ['datahubexecutionrequest/*', 'writeIngestionSource'],
  ['globalsettings/*', 'writeGlobalSettings'],
  ['datahubretention/*', 'writeRetentionConfig'],
  ['datahubupgrade/*', 'writeSystemState'],
  ['datahubstepstate/*', 'writeSystemState'],
]);

/** The operation that writing (or deleting) this aspect of this entity type needs besides EDIT_ENTITY, if any. */
export function authorityOf(entityType: string, aspectName: string): Operation | undefined {
  const type = entityType.toLowerCase();
  return AUTHORITY_ASPECTS.get(`${type}/${aspectName.toLowerCase()}`) ?? AUTHORITY_ASPECTS.get(`${type}/*`);
}

/** Every operation some aspect of this entity type needs: what deleting a whole entity of the type needs. */
export function authoritiesOfType(entityType: string): Operation[] {
  const prefix = `${entityType.toLowerCase()}/`;
  return [...new Set([...AUTHORITY_ASPECTS].filter(([key]) => key.startsWith(prefix)).map(([, op]) => op))];
}

/** The table's rows, for tests that walk it. */
export const authorityAspectEntries = (): ReadonlyArray<readonly [string, Operation]> => [...AUTHORITY_ASPECTS];
