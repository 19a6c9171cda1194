/**
 * Every committed change that can alter what authenticating a request reads: a token deleted (revoked, expired, its
 * user removed), a role assigned or taken away, a session epoch moved on (sign-out, password reset), a user removed,
 * suspended or soft-deleted, a policy changed (the policies' change counter moved). Each adapter's migration turns
 * the list into triggers: SQLite raises the `auth_changes` counter, PostgreSQL sends a notification on
 * `AUTH_CHANNEL` (`authChangeMark` in ports/identity.ts says what readers do with either).
 */
export interface AuthChangeTrigger {
  readonly name: string;
  readonly event: 'INSERT' | 'UPDATE' | 'DELETE';
  readonly table: string;
  readonly when?: string;
}

export const AUTH_CHANNEL = 'almanac_auth';

const userState = (row: 'NEW' | 'OLD'): string =>
  `(${row}.entity_type = 'corpuser' AND ${row}.version = 0 AND ${row}.aspect IN ('status', 'corpUserStatus'))`;

export const AUTH_CHANGE_TRIGGERS: readonly AuthChangeTrigger[] = [
  { name: 'auth_token_deleted', event: 'DELETE', table: 'access_tokens' },
  { name: 'auth_role_inserted', event: 'INSERT', table: 'role_assignments' },
  { name: 'auth_role_updated', event: 'UPDATE', table: 'role_assignments' },
  { name: 'auth_role_deleted', event: 'DELETE', table: 'role_assignments' },
  { name: 'auth_sessions_inserted', event: 'INSERT', table: 'user_access' },
  { name: 'auth_sessions_updated', event: 'UPDATE', table: 'user_access' },
  { name: 'auth_sessions_deleted', event: 'DELETE', table: 'user_access' },
  { name: 'auth_user_deleted', event: 'DELETE', table: 'entities', when: "OLD.entity_type = 'corpuser'" },
  { name: 'auth_user_state_inserted', event: 'INSERT', table: 'aspects', when: userState('NEW') },
  { name: 'auth_user_state_updated', event: 'UPDATE', table: 'aspects', when: `${userState('NEW')} OR ${userState('OLD')}` },
  { name: 'auth_user_state_deleted', event: 'DELETE', table: 'aspects', when: userState('OLD') },
  { name: 'auth_policies_changed', event: 'UPDATE', table: 'entity_type_changes' },
];
