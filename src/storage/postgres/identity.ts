import type pg from 'pg';
import type { AccessTokenFilter, AccessTokenPage, AccessTokenRecord, GrantBasis } from '../store.ts';
import { toAccessToken, type AccessTokenRow } from '../token-row.ts';
import type { PortImpl } from '../compose-store.ts';
import type { IdentityPort } from '../ports/identity.ts';
import type { PostgresAuthListener } from './auth-listener.ts';
import { named } from './named-query.ts';

/** Access tokens, role assignments and password hashes on PostgreSQL. */
export class PostgresIdentity implements PortImpl<IdentityPort> {
  constructor(
    private readonly pool: pg.Pool,
    private readonly authListener: PostgresAuthListener,
  ) {}

  async insertAccessToken(t: AccessTokenRecord): Promise<void> {
    await this.pool.query(
      'INSERT INTO access_tokens (id, name, description, actor_urn, owner_urn, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [t.id, t.name, t.description, t.actorUrn, t.ownerUrn, t.createdAt, t.expiresAt],
    );
  }

  async getAccessToken(id: string): Promise<AccessTokenRecord | undefined> {
    const r = await this.pool.query<AccessTokenRow>(
      // Columns named: a prepared statement fails once a table it selects * from gains a column.
      named('SELECT id, name, description, actor_urn, owner_urn, created_at, expires_at FROM access_tokens WHERE id = $1', [id]),
    );
    return r.rows[0] && toAccessToken(r.rows[0]);
  }

  async findTokenWithActor(id: string): Promise<{ token: AccessTokenRecord; actorExists: boolean; actorInactive: boolean } | undefined> {
    const r = await this.pool.query<AccessTokenRow & { actor_exists: boolean; actor_inactive: boolean }>(
      named(
        `SELECT t.id, t.name, t.description, t.actor_urn, t.owner_urn, t.created_at, t.expires_at,
                EXISTS (SELECT 1 FROM entities e WHERE e.urn = t.actor_urn) AS actor_exists,
                (COALESCE((SELECT metadata->>'status' = 'SUSPENDED' FROM aspects WHERE urn = t.actor_urn AND aspect = 'corpUserStatus' AND version = 0), false)
                OR COALESCE((SELECT metadata->>'removed' = 'true' FROM aspects WHERE urn = t.actor_urn AND aspect = 'status' AND version = 0), false)) AS actor_inactive
           FROM access_tokens t WHERE t.id = $1`,
        [id],
      ),
    );
    const row = r.rows[0];
    return row && { token: toAccessToken(row), actorExists: row.actor_exists, actorInactive: row.actor_inactive };
  }

  async deleteAccessToken(id: string): Promise<boolean> {
    return ((await this.pool.query('DELETE FROM access_tokens WHERE id = $1', [id])).rowCount ?? 0) > 0;
  }

  async listAccessTokens(filter: AccessTokenFilter, start: number, count: number): Promise<AccessTokenPage> {
    const where = `WHERE ($1::text IS NULL OR owner_urn = $1) AND ($2::text IS NULL OR actor_urn = $2)
      AND ($3::bigint IS NULL OR expires_at >= $3) AND ($4::bigint IS NULL OR expires_at < $4) AND ($5::text IS NULL OR name = $5)`;
    const params = [
      filter.ownerUrn ?? null,
      filter.actorUrn ?? null,
      filter.expiresAtFrom ?? null,
      filter.expiresAtBefore ?? null,
      filter.name ?? null,
    ];
    const total = await this.pool.query<{ n: number }>(`SELECT COUNT(*)::bigint AS n FROM access_tokens ${where}`, params);
    const rows = await this.pool.query<AccessTokenRow>(
      `SELECT * FROM access_tokens ${where} ORDER BY expires_at DESC NULLS FIRST, created_at DESC LIMIT $6 OFFSET $7`,
      [...params, count, start],
    );
    return { total: total.rows[0]!.n, tokens: rows.rows.map(toAccessToken) };
  }

  async deleteExpiredAccessTokens(now: number): Promise<number> {
    return (await this.pool.query('DELETE FROM access_tokens WHERE expires_at IS NOT NULL AND expires_at <= $1', [now])).rowCount ?? 0;
  }

  async grantBasis(actorUrn: string): Promise<GrantBasis> {
    const r = await this.pool.query<{ role_urn: string | null; changes: number }>(
      named(
        `SELECT (SELECT role_urn FROM role_assignments WHERE actor_urn = $1) AS role_urn,
                (SELECT changes FROM entity_type_changes WHERE entity_type = 'dataHubPolicy') AS changes`,
        [actorUrn],
      ),
    );
    return { roleUrn: r.rows[0]!.role_urn ?? undefined, policyChanges: r.rows[0]!.changes };
  }

  /** No query: the listener's mark (auth-listener.ts), or undefined while it cannot vouch for it. */
  authChangeMark(): Promise<number | undefined> {
    return this.authListener.mark();
  }

  async getRole(actorUrn: string): Promise<string | undefined> {
    const r = await this.pool.query<{ role_urn: string }>(named('SELECT role_urn FROM role_assignments WHERE actor_urn = $1', [actorUrn]));
    return r.rows[0]?.role_urn;
  }

  async setRole(actorUrns: readonly string[], roleUrn: string | null, assignedBy: string, now: number): Promise<void> {
    if (roleUrn === null) {
      await this.pool.query('DELETE FROM role_assignments WHERE actor_urn = ANY($1)', [actorUrns]);
      return;
    }
    await this.pool.query(
      `INSERT INTO role_assignments (actor_urn, role_urn, assigned_by, assigned_at)
       SELECT a, $2, $3, $4 FROM unnest($1::text[]) AS a
       ON CONFLICT (actor_urn) DO UPDATE SET role_urn = EXCLUDED.role_urn, assigned_by = EXCLUDED.assigned_by, assigned_at = EXCLUDED.assigned_at`,
      [[...new Set(actorUrns)], roleUrn, assignedBy, now],
    );
  }

  async anyPasswordSet(): Promise<boolean> {
    return (await this.pool.query('SELECT 1 FROM user_credentials LIMIT 1')).rows.length > 0;
  }

  async getPasswordHash(userUrn: string): Promise<string | undefined> {
    const r = await this.pool.query<{ password_hash: string }>('SELECT password_hash FROM user_credentials WHERE user_urn = $1', [userUrn]);
    return r.rows[0]?.password_hash;
  }

  async setPasswordHash(userUrn: string, hash: string, now: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO user_credentials (user_urn, password_hash, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (user_urn) DO UPDATE SET password_hash = EXCLUDED.password_hash, updated_at = EXCLUDED.updated_at`,
      [userUrn, hash, now],
    );
  }
}
