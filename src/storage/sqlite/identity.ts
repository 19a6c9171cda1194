import type Database from 'better-sqlite3';
import type { AccessTokenFilter, AccessTokenPage, AccessTokenRecord, GrantBasis } from '../store.ts';
import type { PortImpl } from '../compose-store.ts';
import type { IdentityPort } from '../ports/identity.ts';
import { toAccessToken, type AccessTokenRow } from '../token-row.ts';

/** Access tokens, role assignments and password hashes on SQLite. */
export class SqliteIdentity implements PortImpl<IdentityPort> {
  private readonly setRoleTx: Database.Transaction<(actorUrns: readonly string[], roleUrn: string | null, assignedBy: string, now: number) => void>;

  constructor(
    db: Database.Database,
    private readonly sql: (text: string) => Database.Statement,
  ) {
    this.setRoleTx = db.transaction((actorUrns, roleUrn, assignedBy, now) => {
      for (const actor of actorUrns) {
        if (roleUrn === null) this.sql('DELETE FROM role_assignments WHERE actor_urn = ?').run(actor);
        else
          this.sql(
            `INSERT INTO role_assignments (actor_urn, role_urn, assigned_by, assigned_at) VALUES (?, ?, ?, ?)
             ON CONFLICT (actor_urn) DO UPDATE SET role_urn = excluded.role_urn, assigned_by = excluded.assigned_by, assigned_at = excluded.assigned_at`,
          ).run(actor, roleUrn, assignedBy, now);
      }
    });
  }

  insertAccessToken(t: AccessTokenRecord): void {
    this.sql('INSERT INTO access_tokens (id, name, description, actor_urn, owner_urn, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
      t.id,
      t.name,
      t.description,
      t.actorUrn,
      t.ownerUrn,
      t.createdAt,
      t.expiresAt,
    );
  }

  getAccessToken(id: string): AccessTokenRecord | undefined {
    const row = this.sql('SELECT * FROM access_tokens WHERE id = ?').get(id) as AccessTokenRow | undefined;
    return row && toAccessToken(row);
  }

  findTokenWithActor(id: string): { token: AccessTokenRecord; actorExists: boolean; actorInactive: boolean } | undefined {
    const row = this.sql(
      `SELECT t.*, EXISTS (SELECT 1 FROM entities e WHERE e.urn = t.actor_urn) AS actor_exists,
              ((SELECT json_extract(metadata, '$.status') = 'SUSPENDED' FROM aspects WHERE urn = t.actor_urn AND aspect = 'corpUserStatus' AND version = 0) IS 1
              OR (SELECT json_extract(metadata, '$.removed') FROM aspects WHERE urn = t.actor_urn AND aspect = 'status' AND version = 0) IS 1) AS actor_inactive
         FROM access_tokens t WHERE t.id = ?`,
    ).get(id) as (AccessTokenRow & { actor_exists: number; actor_inactive: number }) | undefined;
    return row && { token: toAccessToken(row), actorExists: row.actor_exists === 1, actorInactive: row.actor_inactive === 1 };
  }

  deleteAccessToken(id: string): boolean {
    return this.sql('DELETE FROM access_tokens WHERE id = ?').run(id).changes > 0;
  }

  listAccessTokens(filter: AccessTokenFilter, start: number, count: number): AccessTokenPage {
    // One statement text for every filter: absent bounds are NULL and drop out.
    const where = `WHERE (@owner IS NULL OR owner_urn = @owner) AND (@actor IS NULL OR actor_urn = @actor)
      AND (@name IS NULL OR name = @name) AND (@from IS NULL OR expires_at >= @from) AND (@before IS NULL OR expires_at < @before)`;
    const params = {
      owner: filter.ownerUrn ?? null,
      actor: filter.actorUrn ?? null,
      name: filter.name ?? null,
      from: filter.expiresAtFrom ?? null,
      before: filter.expiresAtBefore ?? null,
    };
    const total = (this.sql(`SELECT COUNT(*) AS n FROM access_tokens ${where}`).get(params) as { n: number }).n;
    const rows = this.sql(
      `SELECT * FROM access_tokens ${where} ORDER BY expires_at IS NULL DESC, expires_at DESC, created_at DESC LIMIT @count OFFSET @start`,
    ).all({ ...params, start, count }) as AccessTokenRow[];
    return { total, tokens: rows.map(toAccessToken) };
  }

  deleteExpiredAccessTokens(now: number): number {
    return this.sql('DELETE FROM access_tokens WHERE expires_at IS NOT NULL AND expires_at <= ?').run(now).changes;
  }

  grantBasis(actorUrn: string): GrantBasis {
    const changes = this.sql("SELECT changes FROM entity_type_changes WHERE entity_type = 'dataHubPolicy'").get() as { changes: number };
    return { roleUrn: this.getRole(actorUrn), policyChanges: changes.changes };
  }

  /** The counter the triggers of migration 14 raise: one read of one row, and another process's commit shows at once. */
  authChangeMark(): number {
    return (this.sql('SELECT changes FROM auth_changes WHERE id = 1').get() as { changes: number }).changes;
  }

  getRole(actorUrn: string): string | undefined {
    return (this.sql('SELECT role_urn FROM role_assignments WHERE actor_urn = ?').get(actorUrn) as { role_urn: string } | undefined)?.role_urn;
  }

  /** All the actors in one transaction. */
  setRole(actorUrns: readonly string[], roleUrn: string | null, assignedBy: string, now: number): void {
    this.setRoleTx.immediate(actorUrns, roleUrn, assignedBy, now);
  }

  anyPasswordSet(): boolean {
    return this.sql('SELECT 1 FROM user_credentials LIMIT 1').get() !== undefined;
  }

  getPasswordHash(userUrn: string): string | undefined {
    return (this.sql('SELECT password_hash FROM user_credentials WHERE user_urn = ?').get(userUrn) as { password_hash: string } | undefined)
      ?.password_hash;
  }

  setPasswordHash(userUrn: string, hash: string, now: number): void {
    this.sql(
      `INSERT INTO user_credentials (user_urn, password_hash, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (user_urn) DO UPDATE SET password_hash = excluded.password_hash, updated_at = excluded.updated_at`,
    ).run(userUrn, hash, now);
  }
}
