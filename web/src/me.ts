import { gql } from './api.ts';

export interface Me {
  readonly urn: string;
  readonly username: string;
  readonly privileges: readonly string[];
}

/** Who is signed in and what they may do; the console hides what the API would refuse anyway. */
export async function fetchMe(): Promise<Me> {
  const data = await gql<{ me: { corpUser: { urn: string; username: string }; privileges: string[] } }>(
    'query { me { corpUser { urn username } privileges } }',
  );
  return { urn: data.me.corpUser.urn, username: data.me.corpUser.username, privileges: data.me.privileges };
}

export const canDeprecate = (me: Me | null): boolean =>
  !!me && (me.privileges.includes('EDIT_ENTITY') || me.privileges.includes('EDIT_DEPRECATION_PRIVILEGE'));

export const canTruncate = (me: Me | null): boolean => !!me && me.privileges.includes('TRUNCATE_TIMESERIES_INDEX_PRIVILEGE');

const holdsAny = (me: Me | null, privileges: readonly string[]): boolean => !!me && privileges.some((p) => me.privileges.includes(p));

/** The Users page needs MANAGE_USERS_AND_GROUPS, the Policies page MANAGE_POLICIES (Admin's privileges). */
export const canManageUsers = (me: Me | null): boolean => holdsAny(me, ['MANAGE_USERS_AND_GROUPS']);
export const canManagePolicies = (me: Me | null): boolean => holdsAny(me, ['MANAGE_POLICIES']);

/** The Timeseries page reads index sizes and task status: both need these privileges (Admin's), or the API refuses. */
export const canViewTimeseries = (me: Me | null): boolean =>
  holdsAny(me, ['GET_TIMESERIES_INDEX_SIZES_PRIVILEGE', 'MANAGE_SYSTEM_OPERATIONS']) &&
  holdsAny(me, ['GET_ES_TASK_STATUS_PRIVILEGE', 'MANAGE_SYSTEM_OPERATIONS']);

/** The Retention page reads and changes retention policies: APPLY_RETENTION_PRIVILEGE or MANAGE_SYSTEM_OPERATIONS (Admin's). */
export const canManageRetention = (me: Me | null): boolean => holdsAny(me, ['APPLY_RETENTION_PRIVILEGE', 'MANAGE_SYSTEM_OPERATIONS']);

/** The Webhooks page manages subscriptions and reads the delivery log: MANAGE_WEBHOOKS_PRIVILEGE (Admin's). */
export const canManageWebhooks = (me: Me | null): boolean => holdsAny(me, ['MANAGE_WEBHOOKS_PRIVILEGE']);
