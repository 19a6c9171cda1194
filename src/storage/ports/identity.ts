export interface AccessTokenRecord {
  /** Base64(SHA-256(token + salt)): the token itself is never stored. */
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly actorUrn: string;
  readonly ownerUrn: string;
  readonly createdAt: number;
  /** null for NO_EXPIRY. */
  readonly expiresAt: number | null;
}

/** Which tokens a listing returns; every field given must hold. A token without expiry matches no expiresAt bound. */
export interface AccessTokenFilter {
  readonly ownerUrn?: string;
  readonly actorUrn?: string;
  /** Only tokens of exactly this name. */
  readonly name?: string;
  /** expiresAt >= this */
  readonly expiresAtFrom?: number;
  /** expiresAt < this */
  readonly expiresAtBefore?: number;
}

export interface AccessTokenPage {
  readonly total: number;
  readonly tokens: readonly AccessTokenRecord[];
}

/**
 * The actor's role, and how many times any policy entity has changed (a trigger raises the counter on every
 * committed change to a dataHubPolicy aspect row, whatever the path): equal counters mean the same policies.
 */
export interface GrantBasis {
  readonly roleUrn: string | undefined;
  readonly policyChanges: number;
}

/** What IdentityPort only reads: a composition root may answer these from another handle (a read replica). */
export interface IdentityReads {
  getAccessToken(id: string): Promise<AccessTokenRecord | undefined>;
  /** The per-request token check in one read: the stored token, whether its actor exists and is inactive (see SessionState.inactive). */
  findTokenWithActor(
    id: string,
  ): Promise<{ readonly token: AccessTokenRecord; readonly actorExists: boolean; readonly actorInactive: boolean } | undefined>;
  /** Tokens newest expiry first (no expiry first of all) that match the filter. */
  listAccessTokens(filter: AccessTokenFilter, start: number, count: number): Promise<AccessTokenPage>;
  /** The role urn assigned to an actor, if any. */
  getRole(actorUrn: string): Promise<string | undefined>;
  /** What deciding a request's authorisations starts from, in one read: the actor's role and the policies' change counter. */
  grantBasis(actorUrn: string): Promise<GrantBasis>;
  /**
   * A mark that moves whenever a change that can alter authentication or a grant basis may have committed, by any
   * process (storage/auth-change-sql.ts lists those changes): what a process read while the mark stays the same is
   * still true. undefined when this process cannot tell now (PostgreSQL with its notification connection down or
   * not answering): read again. On PostgreSQL the mark reflects every change committed before the call.
   */
  authChangeMark(): Promise<number | undefined>;
  getPasswordHash(userUrn: string): Promise<string | undefined>;
  /** Whether any user has a password, i.e. anyone can sign in with one. */
  anyPasswordSet(): Promise<boolean>;
}

/** What IdentityPort changes: always the primary database. */
export interface IdentityWrites {
  insertAccessToken(token: AccessTokenRecord): Promise<void>;
  deleteAccessToken(id: string): Promise<boolean>;
  /** Deletes tokens that expired before `now`; returns how many. */
  deleteExpiredAccessTokens(now: number): Promise<number>;
  /** Assigns one role to every actor, or removes their role when `roleUrn` is null; atomic. */
  setRole(actorUrns: readonly string[], roleUrn: string | null, assignedBy: string, now: number): Promise<void>;
  setPasswordHash(userUrn: string, hash: string, now: number): Promise<void>;
}

/** Access tokens, roles and passwords (sign-in failures: user-access.ts). */
export interface IdentityPort extends IdentityReads, IdentityWrites {}
