import { badRequest, forbidden, notFound } from '../catalog/errors.ts';
import type { AccessTokenPage, AccessTokenRecord, Parts, ReadParts } from '../storage/store.ts';
import { UNAUTHORIZED_MESSAGE, type Authorizer } from './authorizer.ts';
import type { TokenDuration } from './durations.ts';
import type { Principal } from './principal.ts';
import type { TokenService } from './token-service.ts';
import { recordAudit } from './audit-events.ts';
import { isServiceAccount } from './service-accounts.ts';

export interface CreateTokenInput {
  /** DataHub's AccessTokenType: a user's own (PERSONAL, the default) or a service account's. */
  readonly type?: 'PERSONAL' | 'SERVICE_ACCOUNT';
  readonly actorUrn: string;
  readonly duration: TokenDuration;
  readonly name: string;
  readonly description?: string | null;
}

export interface ListTokensInput {
  readonly start: number;
  readonly count: number;
  /** Only tokens of this owner; managers may ask for anyone's. */
  readonly ownerUrn?: string;
  readonly actorUrn?: string;
  readonly name?: string;
  /** Bounds on expiresAt: from inclusive, before exclusive. */
  readonly expiresAtFrom?: number;
  readonly expiresAtBefore?: number;
}

export const MAX_TOKEN_PAGE = 1000;

/** The token's entity, as DataHub names it (its audit events' entityUrn, GraphQL's AccessTokenMetadata.urn). */
export const tokenUrn = (id: string): string => `urn:li:dataHubAccessToken:${id}`;

export interface TokenLimits {
  readonly maxPerUser: number;
  readonly maxNameLength: number;
  readonly maxDescriptionLength: number;
}

/**
 * Personal access token management with DataHub's rules: a user creates tokens
 * for themself with GENERATE_PERSONAL_ACCESS_TOKENS; creating for others, and
 * seeing or revoking others' tokens, needs MANAGE_ACCESS_TOKENS. The GraphQL API
 * and the CLI both use this.
 */
export class AccessTokens {
  constructor(
    private readonly ports: Pick<Parts, 'identity' | 'audit'> & Pick<ReadParts, 'aspects'>,
    private readonly tokens: TokenService,
    private readonly authorizer: Authorizer,
    private readonly limits: TokenLimits,
    private readonly clock: () => number = Date.now,
  ) {}

  private async canManage(principal: Principal): Promise<boolean> {
    return this.authorizer.allows(principal, 'manageAccessTokens');
  }

  async create(principal: Principal, input: CreateTokenInput): Promise<{ token: string; record: AccessTokenRecord }> {
    if (!(await this.mayCreate(principal, input))) throw forbidden(UNAUTHORIZED_MESSAGE);
    if (input.name.trim() === '') throw badRequest("Field 'name' must not be empty");
    if (input.name.length > this.limits.maxNameLength) throw badRequest(`Field 'name' must be at most ${this.limits.maxNameLength} characters`);
    if ((input.description?.length ?? 0) > this.limits.maxDescriptionLength) {
      throw badRequest(`Field 'description' must be at most ${this.limits.maxDescriptionLength} characters`);
    }
    if (!(await this.ports.aspects.existing([input.actorUrn])).has(input.actorUrn)) {
      throw badRequest(`Failed to create access token: actor ${input.actorUrn} does not exist`);
    }
    const now = this.clock();
    await this.ports.identity.deleteExpiredAccessTokens(now);
    // Counted before the insert, so concurrent creations may pass the limit by their number; it bounds growth, not exactly.
    const held = (await this.ports.identity.listAccessTokens({ actorUrn: input.actorUrn }, 0, 0)).total;
    if (held >= this.limits.maxPerUser) {
      throw badRequest(
        `Failed to create access token: ${input.actorUrn} already has ${held} tokens, the limit (ALMANAC_MAX_TOKENS_PER_USER) is ${this.limits.maxPerUser}; revoke one first`,
      );
    }
    const minted = await this.tokens.mint({ ...input, ownerUrn: principal.actorUrn, now });
    await recordAudit(this.ports.audit, 'CreateAccessTokenEvent', principal.actorUrn, { entityUrn: tokenUrn(minted.record.id) }, now);
    return minted;
  }

  /**
   * DataHub's CreateAccessTokenResolver: a service account's token needs MANAGE_SERVICE_ACCOUNTS and the actor to be
   * one (checked after the privilege, so a caller without it learns nothing about the user).
   */
  private async mayCreate(principal: Principal, input: CreateTokenInput): Promise<boolean> {
    if (input.type === 'SERVICE_ACCOUNT') {
      if (!(await this.authorizer.allows(principal, 'manageServiceAccounts'))) return false;
      const found = (await this.ports.aspects.getEntities([input.actorUrn], ['subTypes'])).get(input.actorUrn);
      if (found === undefined || !isServiceAccount(found)) throw badRequest(`The specified URN is not a service account: ${input.actorUrn}`);
      return true;
    }
    const forSelf = input.actorUrn === principal.actorUrn;
    return (await this.canManage(principal)) || (forSelf && (await this.authorizer.allows(principal, 'generatePersonalAccessToken')));
  }

  /** DataHub's getAccessTokenMetadata: what a raw token is (its stored record), for those who may manage tokens. */
  async metadataOf(principal: Principal, token: string): Promise<AccessTokenRecord> {
    if (!(await this.canManage(principal))) throw forbidden(UNAUTHORIZED_MESSAGE);
    const record = await this.ports.identity.getAccessToken(this.tokens.tokenId(token));
    if (!record) throw notFound('Access token no longer exists');
    return record;
  }

  async list(principal: Principal, input: ListTokensInput): Promise<AccessTokenPage> {
    if (!Number.isInteger(input.start) || input.start < 0) throw badRequest("Field 'start' must be a non-negative integer");
    if (!Number.isInteger(input.count) || input.count < 0 || input.count > MAX_TOKEN_PAGE) {
      throw badRequest(`Field 'count' must be an integer from 0 to ${MAX_TOKEN_PAGE}`);
    }
    const manager = await this.canManage(principal);
    if (!manager && input.ownerUrn !== undefined && input.ownerUrn !== principal.actorUrn) throw forbidden(UNAUTHORIZED_MESSAGE);
    await this.ports.identity.deleteExpiredAccessTokens(this.clock());
    const { start, count, ...filter } = input;
    return this.ports.identity.listAccessTokens({ ...filter, ownerUrn: manager ? input.ownerUrn : principal.actorUrn }, start, count);
  }

  async revoke(principal: Principal, tokenId: string): Promise<true> {
    const record = await this.ports.identity.getAccessToken(tokenId);
    if (!record) throw notFound('Access token no longer exists');
    if (record.ownerUrn !== principal.actorUrn && !(await this.canManage(principal))) throw forbidden(UNAUTHORIZED_MESSAGE);
    await this.ports.identity.deleteAccessToken(tokenId);
    await recordAudit(this.ports.audit, 'RevokeAccessTokenEvent', principal.actorUrn, { entityUrn: tokenUrn(tokenId) }, this.clock());
    return true;
  }
}
