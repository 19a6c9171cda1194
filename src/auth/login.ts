import { CatalogError, badRequest, unauthenticated } from '../catalog/errors.ts';
import type { Parts, ReadParts } from '../storage/store.ts';
import { decoyHash, verifyPassword } from './passwords.ts';
import { corpUserUrn } from './principal.ts';
import type { TokenService } from './token-service.ts';
import { recordAudit } from './audit-events.ts';

/** Failures allowed before each further attempt must wait. */
export const FREE_ATTEMPTS = 5;
const MAX_DELAY_MILLIS = 15 * 60 * 1000;
/** Failures older than this are forgotten (pruned whenever a new failure is recorded). */
export const FAILURE_MEMORY_MILLIS = 24 * 60 * 60 * 1000;

/** After the free attempts, the wait doubles with every failure: 1 s, 2 s, 4 s ... up to 15 minutes. */
export const loginDelayMillis = (failures: number): number =>
  failures < FREE_ATTEMPTS ? 0 : Math.min(1000 * 2 ** (failures - FREE_ATTEMPTS), MAX_DELAY_MILLIS);

const INVALID = 'Invalid username or password.';
const PASSWORD_LOGIN = 'PASSWORD_LOGIN';

export interface SignedIn {
  readonly token: string;
  readonly actorUrn: string;
  readonly expiresAt: number;
}

/**
 * Sign-in with a local password. Unknown users and wrong passwords get the same
 * answer in about the same time. Repeated failures are slowed down per username
 * AND source address, with the counter in the database so every process agrees:
 * someone guessing from elsewhere slows only themself, never locks the user out.
 */
export class LoginService {
  constructor(
    private readonly ports: Pick<Parts, 'userAccess' | 'audit'> & Pick<ReadParts, 'identity'>,
    private readonly tokens: TokenService,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Whether anyone can sign in with a password yet (a fresh installation has no password at all). */
  anyoneCanSignIn(): Promise<boolean> {
    return this.ports.identity.anyPasswordSet();
  }

  async login(username: string, password: string, address: string): Promise<SignedIn> {
    if (username === '' || username.length > 256) throw badRequest("Field 'username' must be a non-empty string of at most 256 characters");
    if (password === '' || password.length > 1024) throw badRequest("Field 'password' must be a non-empty string of at most 1024 characters");
    const now = this.clock();
    // Failures are counted per name ignoring case, as names are compared: EVE and eve share one throttle.
    const throttleKey = username.toLowerCase();
    const failures = await this.ports.userAccess.getSignInFailures(throttleKey, address);
    if (failures) {
      const wait = failures.lastFailureAt + loginDelayMillis(failures.failures) - now;
      if (wait > 0) {
        throw new CatalogError('RATE_LIMITED', `Too many failed sign-in attempts for ${username}. Try again in ${Math.ceil(wait / 1000)} s.`, {
          retryAfterSeconds: Math.ceil(wait / 1000),
        });
      }
    }
    let actorUrn = corpUserUrn(username);
    let stored = await this.ports.identity.getPasswordHash(actorUrn);
    if (stored === undefined) {
      // Names are compared ignoring case: EVE@example.com signs in as eve@example.com when that is the only such user.
      const matches = await this.ports.userAccess.userUrnsIgnoringCase(actorUrn);
      if (matches.length === 1) {
        actorUrn = matches[0]!;
        stored = await this.ports.identity.getPasswordHash(actorUrn);
      }
    }
    const ok = (await verifyPassword(password, stored ?? (await decoyHash()))) && stored !== undefined;
    const state = ok ? await this.ports.userAccess.getSessionState(actorUrn) : undefined;
    if (!state?.exists) {
      await this.ports.userAccess.recordSignInFailure(throttleKey, address, now);
      await this.ports.userAccess.pruneSignInFailures(now - FAILURE_MEMORY_MILLIS);
      await recordAudit(this.ports.audit, 'FailedLogInEvent', actorUrn, { loginSource: PASSWORD_LOGIN }, now);
      throw unauthenticated(INVALID);
    }
    await this.ports.userAccess.clearSignInFailures(throttleKey, address);
    // Only someone who knows the password learns that the account is inactive.
    if (state.inactive) {
      await recordAudit(this.ports.audit, 'FailedLogInEvent', actorUrn, { loginSource: PASSWORD_LOGIN }, now);
      throw unauthenticated(`User ${actorUrn} is not active (suspended or soft-deleted). Please contact your DataHub administrator.`);
    }
    await recordAudit(this.ports.audit, 'LogInEvent', actorUrn, { loginSource: PASSWORD_LOGIN }, now);
    return this.session(actorUrn, now);
  }

  /** Ends every session of the user: sessions are stateless, so one cannot end alone. Access tokens are revoked on their own. */
  async endSessions(actorUrn: string): Promise<void> {
    await this.ports.userAccess.endSessions(actorUrn);
  }

  /** A new session for a user who has just proved who they are (sign-in or sign-up). */
  async session(actorUrn: string, now = this.clock()): Promise<SignedIn> {
    const session = await this.tokens.mintSession(actorUrn, now);
    return { token: session.token, actorUrn, expiresAt: session.expiresAt };
  }
}
