import crypto from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { unauthenticated } from '../catalog/errors.ts';
import type { AccessTokenRecord, Parts, ReadParts } from '../storage/store.ts';
import { TOKEN_DURATIONS, type TokenDuration } from './durations.ts';
import { AuthStateCache } from './auth-state-cache.ts';
import type { TokenSecrets } from './secrets.ts';

export const TOKEN_ISSUER = 'datahub-metadata-service';
const VERIFIED_CACHE_SIZE = 10_000;
/** DataHub's default session length (auth.session.ttlInHours and play.http.session.maxAge: 24 hours). */
export const DEFAULT_SESSION_TTL_MILLIS = 24 * 60 * 60 * 1000;

export interface MintRequest {
  readonly actorUrn: string;
  readonly ownerUrn: string;
  readonly duration: TokenDuration;
  readonly name: string;
  readonly description?: string | null;
  readonly now?: number;
}

export interface VerifiedToken {
  readonly actorUrn: string;
  /** The stored id of a personal token; empty for a session token, which is not stored. */
  readonly tokenId: string;
  readonly type: 'PERSONAL' | 'SESSION';
  /** Whether the actor exists, when the token check read it already (personal tokens). */
  readonly actorExists?: boolean;
  /** The auth change mark the check read (AuthStateCache.mark), for the rest of the request. */
  readonly authMark?: number;
}

/** DataHub refuses inactive actors too ("Actor is not active"); Almanac says which states count. */
const inactiveMessage = (actorUrn: string): string =>
  `Failed to validate DataHub token: actor ${actorUrn} is not active (suspended or soft-deleted).`;

const actorIdOf = (actorUrn: string): string => actorUrn.slice(actorUrn.lastIndexOf(':') + 1);

/**
 * DataHub's stateful personal access tokens: HS256 JWTs with version "2" whose
 * salted SHA-256 is stored, so a token can be listed and revoked. The token
 * itself is never stored or logged.
 */
export class TokenService {
  private readonly key: Uint8Array;
  /** The per-request reads of a token's record and a session's user, kept while nothing they depend on changes. */
  private readonly state: AuthStateCache;

  constructor(
    private readonly ports: Pick<Parts, 'identity'> & Pick<ReadParts, 'userAccess'>,
    private readonly secrets: TokenSecrets,
    readonly sessionTtlMillis: number = DEFAULT_SESSION_TTL_MILLIS,
    state?: AuthStateCache,
  ) {
    this.key = new TextEncoder().encode(secrets.signingKey);
    this.state = state ?? new AuthStateCache(ports);
  }

  /** An HMAC of `purpose` under the signing key: secrets derived from stored nonces, which alone reveal nothing. */
  derive(purpose: string): string {
    return crypto.createHmac('sha256', this.key).update(purpose).digest('base64url');
  }

  /** Base64(SHA-256(token + salt)): DataHub's stored token id. */
  tokenId(token: string): string {
    // The one-shot hash: computed on every authenticated request, and several times cheaper than a Hash object.
    return crypto.hash('sha256', token + this.secrets.salt, 'base64');
  }

  async mint(req: MintRequest): Promise<{ token: string; record: AccessTokenRecord }> {
    const now = req.now ?? Date.now();
    const ttl = TOKEN_DURATIONS[req.duration];
    const actorId = actorIdOf(req.actorUrn);
    let jwt = new SignJWT({ actorType: 'USER', actorId, type: 'PERSONAL', version: '2' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(actorId)
      .setIssuer(TOKEN_ISSUER)
      .setJti(crypto.randomUUID())
      .setIssuedAt(Math.floor(now / 1000));
    if (ttl !== null) jwt = jwt.setExpirationTime(Math.floor((now + ttl) / 1000));
    const token = await jwt.sign(this.key);
    const record: AccessTokenRecord = {
      id: this.tokenId(token),
      name: req.name,
      description: req.description ?? null,
      actorUrn: req.actorUrn,
      ownerUrn: req.ownerUrn,
      createdAt: now,
      expiresAt: ttl === null ? null : now + ttl,
    };
    await this.ports.identity.insertAccessToken(record);
    return { token, record };
  }

  /**
   * A session token for a signed-in user. It is not stored: it carries the
   * user's session epoch, and ends when the epoch moves on (sign-out, password
   * reset, removal) or when it expires.
   */
  async mintSession(actorUrn: string, now = Date.now()): Promise<{ token: string; expiresAt: number }> {
    const actorId = actorIdOf(actorUrn);
    const expiresAt = now + this.sessionTtlMillis;
    const { sessionEpoch } = await this.ports.userAccess.getSessionState(actorUrn);
    const token = await new SignJWT({ actorType: 'USER', actorId, type: 'SESSION', version: '1', epoch: sessionEpoch })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(actorId)
      .setIssuer(TOKEN_ISSUER)
      .setJti(crypto.randomUUID())
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(Math.floor(expiresAt / 1000))
      .sign(this.key);
    return { token, expiresAt };
  }

  /** A session is live while its user exists, is active (not suspended or soft-deleted), and its epoch is the user's current one: one read at most. */
  private async verifySession(actorUrn: string, epoch: unknown): Promise<VerifiedToken> {
    const mark = await this.state.mark();
    const state = await this.state.get(
      mark,
      `session\u0000${actorUrn}`,
      () => this.ports.userAccess.getSessionState(actorUrn),
      (s) => s.exists && !s.inactive,
    );
    if (!state.exists) throw unauthenticated(`Failed to validate DataHub token: actor ${actorUrn} does not exist.`);
    if (state.inactive) throw unauthenticated(inactiveMessage(actorUrn));
    if (epoch !== state.sessionEpoch) throw unauthenticated('Failed to validate DataHub token: the session has ended. Sign in again.');
    return { actorUrn, tokenId: '', type: 'SESSION', actorExists: true, ...(mark !== undefined ? { authMark: mark } : {}) };
  }

  /**
   * Signature checks cost ~100 µs (WebCrypto) and dominated every authenticated
   * request, so the claims of a token that verified are kept until it expires:
   * only the exact same token hits (keyed by its salted hash, so no token is
   * kept in memory); revocation is checked by every request (the stored record, kept by AuthStateCache while no
   * change that could revoke it has committed anywhere). An
   * expired entry falls through to jose, which reports expiry.
   */
  private readonly verified = new Map<string, { payload: Record<string, unknown>; expSeconds: number }>();
  private cryptoKey: Promise<CryptoKey> | undefined;

  private async verifySignature(token: string, tokenId: string): Promise<Record<string, unknown>> {
    const hit = this.verified.get(tokenId);
    if (hit && Math.floor(Date.now() / 1000) < hit.expSeconds) return hit.payload;
    this.verified.delete(tokenId);
    this.cryptoKey ??= crypto.webcrypto.subtle.importKey('raw', this.key, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    const { payload } = await jwtVerify(token, await this.cryptoKey, { algorithms: ['HS256'], issuer: TOKEN_ISSUER });
    if (payload.nbf === undefined) {
      if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value as string);
      this.verified.set(tokenId, { payload, expSeconds: payload.exp ?? Infinity });
    }
    return payload;
  }

  /** Checks signature, algorithm, issuer, expiry and revocation; throws UNAUTHENTICATED with DataHub's messages. */
  async verify(token: string): Promise<VerifiedToken> {
    const tokenId = this.tokenId(token);
    let payload: Record<string, unknown>;
    try {
      payload = await this.verifySignature(token, tokenId);
    } catch (e) {
      if (e instanceof joseErrors.JWTExpired) {
        // DataHub deletes an expired token when it is presented.
        await this.ports.identity.deleteAccessToken(tokenId).catch(() => undefined);
        throw unauthenticated('Failed to validate DataHub token. Token has expired.');
      }
      throw unauthenticated('Unable to verify the provided token.');
    }
    const actorId = payload.actorId;
    if (typeof actorId !== 'string' || actorId === '' || payload.actorType !== 'USER') {
      throw unauthenticated("Failed to validate DataHub token: Found malformed or missing 'actor' claim.");
    }
    if (payload.type === 'SESSION' && payload.version === '1') return this.verifySession(`urn:li:corpuser:${actorId}`, payload.epoch);
    if (payload.type !== 'PERSONAL' || payload.version !== '2') throw unauthenticated('Unable to verify the provided token.');
    const mark = await this.state.mark();
    const found = await this.state.get(
      mark,
      `token\u0000${tokenId}`,
      () => this.ports.identity.findTokenWithActor(tokenId),
      (f) => f !== undefined && f.actorExists && !f.actorInactive,
    );
    if (!found) throw unauthenticated('Failed to validate DataHub token: Token has been revoked');
    if (found.actorInactive) throw unauthenticated(inactiveMessage(found.token.actorUrn));
    return {
      actorUrn: found.token.actorUrn,
      tokenId,
      type: 'PERSONAL',
      actorExists: found.actorExists,
      ...(mark !== undefined ? { authMark: mark } : {}),
    };
  }
}
