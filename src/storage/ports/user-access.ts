/**
 * What sign-in, sessions and invitations keep: types only, implemented by
 * sqlite/user-access.ts and postgres/user-access.ts.
 */

/** What a session check needs to know of a user, read in one statement. */
export interface SessionState {
  readonly exists: boolean;
  /** Suspended (corpUserStatus SUSPENDED) or soft-deleted (status.removed): DataHub's ActorContext.isActive, negated. */
  readonly inactive: boolean;
  /** Sessions minted under another epoch are over; 0 until sessions are first ended. */
  readonly sessionEpoch: number;
}

/** The current invite token of one role ('' for an invitation without a role); the token is derived from the nonce. */
export interface InviteRecord {
  readonly roleKey: string;
  readonly nonce: string;
  readonly createdAt: number;
  readonly createdBy: string;
}

export interface SignInFailures {
  readonly failures: number;
  readonly lastFailureAt: number;
}

/** What UserAccessStore only reads: a composition root may answer these from another handle (a read replica). */
export interface UserAccessReads {
  getSessionState(userUrn: string): Promise<SessionState>;
  /** Users (entities or password holders) whose urn equals `userUrn` ignoring ASCII case; reads only. */
  userUrnsIgnoringCase(userUrn: string): Promise<string[]>;
  getInvite(roleKey: string): Promise<InviteRecord | undefined>;
  getSignInFailures(username: string, address: string): Promise<SignInFailures | undefined>;
}

/** What UserAccessStore changes: always the primary database. */
export interface UserAccessWrites {
  /** Raises the user's session epoch: every session minted before ends. */
  endSessions(userUrn: string): Promise<void>;
  /** Sets the password and ends the user's sessions, in one transaction. */
  resetPassword(userUrn: string, hash: string, now: number): Promise<void>;
  /** Replaces the role's invite (the previous token stops working). */
  putInvite(invite: InviteRecord): Promise<void>;
  recordSignInFailure(username: string, address: string, now: number): Promise<void>;
  clearSignInFailures(username: string, address: string): Promise<void>;
  /** Forgets failures last seen before `before`; returns how many pairs were forgotten. */
  pruneSignInFailures(before: number): Promise<number>;
}

export interface UserAccessStore extends UserAccessReads, UserAccessWrites {}
