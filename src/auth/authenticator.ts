import { unauthenticated } from '../catalog/errors.ts';
import type { ReadParts } from '../storage/store.ts';
import { ADMIN_URN, corpUserUrn, type Principal } from './principal.ts';
import { safeEqual } from './secrets.ts';
import { ACTOR_COOKIE, SESSION_COOKIE, readCookie } from './session-cookies.ts';
import type { TokenService } from './token-service.ts';

export interface AuthenticatorOptions {
  readonly enabled: boolean;
  readonly systemClientId: string;
  readonly systemClientSecret: string | undefined;
}

/**
 * DataHub's authenticator chain: the system client (`Basic <id>:<secret>`, raw,
 * not base64), then access tokens (`Bearer <jwt>`), then, for a request without
 * an Authorization header, the frontend's session cookies. Every failure is an
 * UNAUTHENTICATED error with DataHub's message.
 */
export class Authenticator {
  constructor(
    private readonly options: AuthenticatorOptions,
    private readonly tokens: TokenService,
    private readonly ports: Pick<ReadParts, 'aspects'>,
  ) {}

  async authenticate(header: string | undefined, cookieHeader?: string): Promise<Principal> {
    if (!this.options.enabled) return { actorUrn: ADMIN_URN, kind: 'user' };
    if (header === undefined || header.trim() === '') {
      const session = readCookie(cookieHeader, SESSION_COOKIE);
      if (session !== undefined) return this.sessionCookie(session, readCookie(cookieHeader, ACTOR_COOKIE));
      throw unauthenticated("Request is missing 'Authorization' header.");
    }
    const [scheme = '', ...rest] = header.trim().split(/\s+/);
    const credentials = rest.join(' ');
    if (/^basic$/i.test(scheme)) return this.systemClient(credentials);
    if (!/^bearer$/i.test(scheme)) throw unauthenticated("Authorization header missing 'Bearer' prefix.");
    if (credentials === '') throw unauthenticated('Unable to verify the provided token.');
    return this.bearer(credentials);
  }

  /** As DataHub's frontend: the session cookie counts only with an actor cookie naming the same user, and only for a session token. */
  private async sessionCookie(token: string, actor: string | undefined): Promise<Principal> {
    const principal = await this.bearer(token);
    if (principal.tokenId !== undefined || actor !== principal.actorUrn) throw unauthenticated('Invalid session cookie. Sign in again.');
    return { ...principal, viaCookie: true };
  }

  private async bearer(credentials: string): Promise<Principal> {
    const verified = await this.tokens.verify(credentials);
    const actorExists = verified.actorExists ?? (await this.ports.aspects.existing([verified.actorUrn])).has(verified.actorUrn);
    if (!actorExists) {
      throw unauthenticated(`Failed to validate DataHub token: actor ${verified.actorUrn} does not exist.`);
    }
    return {
      actorUrn: verified.actorUrn,
      kind: 'user',
      ...(verified.tokenId ? { tokenId: verified.tokenId } : {}),
      ...(verified.authMark !== undefined ? { authMark: verified.authMark } : {}),
    };
  }

  private systemClient(credentials: string): Principal {
    const secret = this.options.systemClientSecret;
    const parts = credentials.split(':');
    // Both halves are compared every time, so timing does not tell which one was wrong.
    const idOk = parts.length === 2 && safeEqual(parts[0]!, this.options.systemClientId);
    const secretOk = parts.length === 2 && secret !== undefined && safeEqual(parts[1]!, secret);
    if (!idOk || !secretOk) {
      throw unauthenticated('Provided credentials do not match known system client id & client secret. Check your configuration values...');
    }
    return { actorUrn: corpUserUrn(this.options.systemClientId), kind: 'system' };
  }
}
