import { CatalogError, badRequest, unauthenticated } from '../catalog/errors.ts';
import type { Store } from '../storage/store.ts';
import { decoyHash, verifyPassword } from './passwords.ts';
import { corpUserUrn } from './principal.ts';
import type { TokenService } from './token-service.ts';

/** Failures allowed before each further attempt must wait. */
export const FREE_ATTEMPTS = 5;
const MAX_DELAY_MILLIS = 15 * 60 * 1000;

/** After the free attempts, the wait doubles with every failure: 1 s, 2 s, 4 s ... up to 15 minutes. */
export const loginDelayMillis = (failures: number): number =>
  failures < FREE_ATTEMPTS ? 0 : Math.min(1000 * 2 ** (failures - FREE_ATTEMPTS), MAX_DELAY_MILLIS);

const INVALID = 'Invalid username or password.';

/**
 * Console sign-in with a local password. Unknown users and wrong passwords get
 * the same answer in about the same time; repeated failures for a username are
 * slowed down, with the counter in the database so every process agrees.
 */
export class LoginService {
  constructor(
    private readonly store: Store,
    private readonly tokens: TokenService,
    private readonly clock: () => number = Date.now,
  ) {}

  async login(username: string, password: string): Promise<{ token: string; actorUrn: string; expiresAt: number }> {
    if (username === '' || username.length > 256) throw badRequest("Field 'username' must be a non-empty string of at most 256 characters");
    if (password === '' || password.length > 1024) throw badRequest("Field 'password' must be a non-empty string of at most 1024 characters");
    const now = this.clock();
    const failures = await this.store.getLoginFailures(username);
    if (failures) {
      const wait = failures.lastFailureAt + loginDelayMillis(failures.failures) - now;
      if (wait > 0) {
        throw new CatalogError('RATE_LIMITED', `Too many failed sign-in attempts for ${username}. Try again in ${Math.ceil(wait / 1000)} s.`, {
          retryAfterSeconds: Math.ceil(wait / 1000),
        });
      }
    }
    const actorUrn = corpUserUrn(username);
    const stored = await this.store.getPasswordHash(actorUrn);
    const ok = (await verifyPassword(password, stored ?? (await decoyHash()))) && stored !== undefined;
    if (!ok || !(await this.store.existing([actorUrn])).has(actorUrn)) {
      await this.store.recordLoginFailure(username, now);
      throw unauthenticated(INVALID);
    }
    await this.store.clearLoginFailures(username);
    const session = await this.tokens.mintSession(actorUrn, now);
    return { token: session.token, actorUrn, expiresAt: session.expiresAt };
  }
}
