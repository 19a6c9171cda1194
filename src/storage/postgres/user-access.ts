import type pg from 'pg';
import type { InviteRecord, SessionState, SignInFailures, UserAccessStore } from '../ports/user-access.ts';
import { named } from './named-query.ts';

/** Raises a user's session epoch ($1), creating its row at 1; shared with the user deletion in aspects.ts. */
export const END_SESSIONS_SQL = `INSERT INTO user_access (user_urn, session_epoch) VALUES ($1, 1)
  ON CONFLICT (user_urn) DO UPDATE SET session_epoch = user_access.session_epoch + 1`;

/** Session epochs, invitations and sign-in failures on PostgreSQL. */
export class PostgresUserAccess implements UserAccessStore {
  constructor(private readonly pool: pg.Pool) {}

  async getSessionState(userUrn: string): Promise<SessionState> {
    const r = await this.pool.query<{ present: boolean; inactive: boolean; epoch: number | null }>(
      named(
        `SELECT EXISTS (SELECT 1 FROM entities WHERE urn = $1) AS present,
                (COALESCE((SELECT metadata->>'status' = 'SUSPENDED' FROM aspects WHERE urn = $1 AND aspect = 'corpUserStatus' AND version = 0), false)
                OR COALESCE((SELECT metadata->>'removed' = 'true' FROM aspects WHERE urn = $1 AND aspect = 'status' AND version = 0), false)) AS inactive,
                (SELECT session_epoch FROM user_access WHERE user_urn = $1) AS epoch`,
        [userUrn],
      ),
    );
    const row = r.rows[0]!;
    return { exists: row.present, inactive: row.inactive, sessionEpoch: Number(row.epoch ?? 0) };
  }

  async endSessions(userUrn: string): Promise<void> {
    await this.pool.query(END_SESSIONS_SQL, [userUrn]);
  }

  async resetPassword(userUrn: string, hash: string, now: number): Promise<void> {
    // One statement, so the new password and the end of the old sessions commit together.
    await this.pool.query(
      `WITH p AS (
         INSERT INTO user_credentials (user_urn, password_hash, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (user_urn) DO UPDATE SET password_hash = excluded.password_hash, updated_at = excluded.updated_at
       ) ${END_SESSIONS_SQL}`,
      [userUrn, hash, now],
    );
  }

  async userUrnsIgnoringCase(userUrn: string): Promise<string[]> {
    const r = await this.pool.query<{ urn: string }>(
      named(
        `SELECT urn FROM entities WHERE entity_type = 'corpuser' AND lower(urn) = lower($1)
         UNION SELECT user_urn FROM user_credentials WHERE lower(user_urn) = lower($1) LIMIT 10`,
        [userUrn],
      ),
    );
    return r.rows.map((row) => row.urn);
  }

  async getInvite(roleKey: string): Promise<InviteRecord | undefined> {
    const r = await this.pool.query<{ role_key: string; nonce: string; created_at: number; created_by: string }>(
      'SELECT role_key, nonce, created_at, created_by FROM invite_tokens WHERE role_key = $1',
      [roleKey],
    );
    const row = r.rows[0];
    return row && { roleKey: row.role_key, nonce: row.nonce, createdAt: Number(row.created_at), createdBy: row.created_by };
  }

  async putInvite(i: InviteRecord): Promise<void> {
    await this.pool.query(
      `INSERT INTO invite_tokens (role_key, nonce, created_at, created_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (role_key) DO UPDATE SET nonce = excluded.nonce, created_at = excluded.created_at, created_by = excluded.created_by`,
      [i.roleKey, i.nonce, i.createdAt, i.createdBy],
    );
  }

  async getSignInFailures(username: string, address: string): Promise<SignInFailures | undefined> {
    const r = await this.pool.query<{ failures: number; last_failure_at: number }>(
      'SELECT failures, last_failure_at FROM sign_in_failures WHERE username = $1 AND address = $2',
      [username, address],
    );
    const row = r.rows[0];
    return row && { failures: row.failures, lastFailureAt: Number(row.last_failure_at) };
  }

  async recordSignInFailure(username: string, address: string, now: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO sign_in_failures (username, address, failures, last_failure_at) VALUES ($1, $2, 1, $3)
       ON CONFLICT (username, address) DO UPDATE SET failures = sign_in_failures.failures + 1, last_failure_at = excluded.last_failure_at`,
      [username, address, now],
    );
  }

  async clearSignInFailures(username: string, address: string): Promise<void> {
    await this.pool.query('DELETE FROM sign_in_failures WHERE username = $1 AND address = $2', [username, address]);
  }

  async pruneSignInFailures(before: number): Promise<number> {
    return (await this.pool.query('DELETE FROM sign_in_failures WHERE last_failure_at < $1', [before])).rowCount ?? 0;
  }
}
