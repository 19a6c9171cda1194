import type Database from 'better-sqlite3';
import type { InviteRecord, SessionState, SignInFailures, UserAccessStore } from '../ports/user-access.ts';

/** Raises a user's session epoch, creating its row at 1; shared with the user deletion in aspects.ts. */
export const END_SESSIONS_SQL = `INSERT INTO user_access (user_urn, session_epoch) VALUES (?, 1)
  ON CONFLICT (user_urn) DO UPDATE SET session_epoch = user_access.session_epoch + 1`;

/** Session epochs, invitations and sign-in failures on SQLite. */
export class SqliteUserAccess implements UserAccessStore {
  private readonly resetPasswordTx: Database.Transaction<(userUrn: string, hash: string, now: number) => void>;

  constructor(
    db: Database.Database,
    private readonly sql: (text: string) => Database.Statement,
  ) {
    this.resetPasswordTx = db.transaction((userUrn, hash, now) => {
      this.sql(
        `INSERT INTO user_credentials (user_urn, password_hash, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (user_urn) DO UPDATE SET password_hash = excluded.password_hash, updated_at = excluded.updated_at`,
      ).run(userUrn, hash, now);
      this.sql(END_SESSIONS_SQL).run(userUrn);
    });
  }

  async getSessionState(userUrn: string): Promise<SessionState> {
    const row = this.sql(
      `SELECT EXISTS (SELECT 1 FROM entities WHERE urn = @urn) AS present,
              ((SELECT json_extract(metadata, '$.status') = 'SUSPENDED' FROM aspects WHERE urn = @urn AND aspect = 'corpUserStatus' AND version = 0) IS 1
              OR (SELECT json_extract(metadata, '$.removed') FROM aspects WHERE urn = @urn AND aspect = 'status' AND version = 0) IS 1) AS inactive,
              (SELECT session_epoch FROM user_access WHERE user_urn = @urn) AS epoch`,
    ).get({ urn: userUrn }) as { present: number; inactive: number; epoch: number | null };
    return { exists: row.present === 1, inactive: row.inactive === 1, sessionEpoch: row.epoch ?? 0 };
  }

  async endSessions(userUrn: string): Promise<void> {
    this.sql(END_SESSIONS_SQL).run(userUrn);
  }

  async resetPassword(userUrn: string, hash: string, now: number): Promise<void> {
    this.resetPasswordTx.immediate(userUrn, hash, now);
  }

  async userUrnsIgnoringCase(userUrn: string): Promise<string[]> {
    const rows = this.sql(
      `SELECT urn FROM entities WHERE entity_type = 'corpuser' AND lower(urn) = lower(@urn)
       UNION SELECT user_urn FROM user_credentials WHERE lower(user_urn) = lower(@urn) LIMIT 10`,
    ).all({ urn: userUrn }) as { urn: string }[];
    return rows.map((r) => r.urn);
  }

  async getInvite(roleKey: string): Promise<InviteRecord | undefined> {
    const row = this.sql('SELECT role_key, nonce, created_at, created_by FROM invite_tokens WHERE role_key = ?').get(roleKey) as
      { role_key: string; nonce: string; created_at: number; created_by: string } | undefined;
    return row && { roleKey: row.role_key, nonce: row.nonce, createdAt: row.created_at, createdBy: row.created_by };
  }

  async putInvite(i: InviteRecord): Promise<void> {
    this.sql(
      `INSERT INTO invite_tokens (role_key, nonce, created_at, created_by) VALUES (?, ?, ?, ?)
       ON CONFLICT (role_key) DO UPDATE SET nonce = excluded.nonce, created_at = excluded.created_at, created_by = excluded.created_by`,
    ).run(i.roleKey, i.nonce, i.createdAt, i.createdBy);
  }

  async getSignInFailures(username: string, address: string): Promise<SignInFailures | undefined> {
    const row = this.sql('SELECT failures, last_failure_at FROM sign_in_failures WHERE username = ? AND address = ?').get(username, address) as
      { failures: number; last_failure_at: number } | undefined;
    return row && { failures: row.failures, lastFailureAt: row.last_failure_at };
  }

  async recordSignInFailure(username: string, address: string, now: number): Promise<void> {
    this.sql(
      `INSERT INTO sign_in_failures (username, address, failures, last_failure_at) VALUES (?, ?, 1, ?)
       ON CONFLICT (username, address) DO UPDATE SET failures = sign_in_failures.failures + 1, last_failure_at = excluded.last_failure_at`,
    ).run(username, address, now);
  }

  async clearSignInFailures(username: string, address: string): Promise<void> {
    this.sql('DELETE FROM sign_in_failures WHERE username = ? AND address = ?').run(username, address);
  }

  async pruneSignInFailures(before: number): Promise<number> {
    return this.sql('DELETE FROM sign_in_failures WHERE last_failure_at < ?').run(before).changes;
  }
}
