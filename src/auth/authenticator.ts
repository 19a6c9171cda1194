import { unauthenticated } from '../catalog/errors.ts';
import type { Store } from '../storage/store.ts';
import { ADMIN_URN, corpUserUrn, type Principal } from './principal.ts';
import { safeEqual } from './secrets.ts';
import type { TokenService } from './token-service.ts';

export interface AuthenticatorOptions {
  readonly enabled: boolean;
  readonly systemClientId: string;
  readonly systemClientSecret: string | undefined;
}

/**
 * DataHub's authenticator chain: the system client (`Basic <id>:<secret>`, raw,
 * not base64), then personal access tokens (`Bearer <jwt>`). Every failure is an
 * UNAUTHENTICATED error with DataHub's message.
 */
export class Authenticator {
  constructor(
    private readonly options: AuthenticatorOptions,
    private readonly tokens: TokenService,
    private readonly store: Store,
  ) {}

  async authenticate(header: string | undefined): Promise<Principal> {
    if (!this.options.enabled) return { actorUrn: ADMIN_URN, kind: 'user' };
    if (header === undefined || header.trim() === '') throw unauthenticated("Request is missing 'Authorization' header.");
    const [scheme = '', ...rest] = header.trim().split(/\s+/);
    const credentials = rest.join(' ');
    if (/^basic$/i.test(scheme)) return this.systemClient(credentials);
    if (!/^bearer$/i.test(scheme)) throw unauthenticated("Authorization header missing 'Bearer' prefix.");
    if (credentials === '') throw unauthenticated('Unable to verify the provided token.');
    const verified = await this.tokens.verify(credentials);
    const actorExists = verified.actorExists ?? (await this.store.existing([verified.actorUrn])).has(verified.actorUrn);
    if (!actorExists) {
      throw unauthenticated(`Failed to validate DataHub token: actor ${verified.actorUrn} does not exist.`);
    }
    return { actorUrn: verified.actorUrn, kind: 'user', ...(verified.tokenId ? { tokenId: verified.tokenId } : {}) };
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
