import { badRequest, forbidden, notFound } from '../catalog/errors.ts';
import type { Catalog } from '../catalog/catalog.ts';
import type { EntitySearch } from '../catalog/search/entity-search.ts';
import { parseUrn } from '../catalog/urn.ts';
import type { Authorizer } from './authorizer.ts';
import { Invitations } from './invitations.ts';
import { ADMIN_URN, type Principal } from './principal.ts';
import type { Parts, ReadParts } from '../storage/store.ts';
import type { TokenService } from './token-service.ts';
import { recordAudit } from './audit-events.ts';
import { SERVICE_ACCOUNT_SUB_TYPE } from './service-accounts.ts';

export const USER_STATUSES = ['ACTIVE', 'SUSPENDED'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** DataHub's listUsers defaults (ListUsersResolver), and Almanac's bound on a page. */
export const DEFAULT_USER_PAGE = 20;
export const MAX_USER_PAGE = 1000;

export interface UserPage {
  readonly start: number;
  readonly count: number;
  readonly total: number;
  readonly urns: readonly string[];
}

const ADMIN_PROTECTED = `${ADMIN_URN} is the built-in administrator and cannot be suspended or removed`;

/**
 * Managing users as DataHub's GraphQL resolvers do: listing (any signed-in
 * user), removal, suspension and invitations (MANAGE_USERS_AND_GROUPS). The
 * GraphQL API and the CLI both use this.
 */
export class UserAdmin {
  readonly invitations: Invitations;
  private readonly audit: Parts['audit'];

  constructor(
    ports: Pick<Parts, 'identity' | 'userAccess' | 'audit'> & Pick<ReadParts, 'relationships'>,
    private readonly catalog: Catalog,
    private readonly search: EntitySearch,
    tokens: TokenService,
    private readonly authorizer: Authorizer,
    private readonly clock: () => number = Date.now,
  ) {
    this.invitations = new Invitations(catalog, ports, tokens, clock);
    this.audit = ports.audit;
  }

  private requireManage(principal: Principal): Promise<void> {
    return this.authorizer.require(principal, 'manageUsers');
  }

  private userUrn(field: string, urn: string): string {
    if (parseUrn(urn).entityType !== 'corpuser') throw badRequest(`Field '${field}': ${urn} is not a corpuser urn`);
    return urn;
  }

  /** Users in urn order, soft-deleted ones and service accounts left out; `query` matches as searchAcrossEntities' full text does. */
  async list(input: { start?: number | null; count?: number | null; query?: string | null }): Promise<UserPage> {
    const start = input.start ?? 0;
    const count = input.count ?? DEFAULT_USER_PAGE;
    if (!Number.isInteger(start) || start < 0) throw badRequest("Field 'start' must be a non-negative integer");
    if (!Number.isInteger(count) || count < 0 || count > MAX_USER_PAGE)
      throw badRequest(`Field 'count' must be an integer from 0 to ${MAX_USER_PAGE}`);
    const query = input.query?.trim() || undefined;
    // DataHub's ListUsersResolver leaves service accounts out: they have a list of their own.
    const people = [[{ field: 'typeNames', values: [SERVICE_ACCOUNT_SUB_TYPE], negated: true }]];
    const page = await this.search.page({ entityTypes: ['corpuser'], query, filter: people, includeSoftDeleted: false, sort: [] }, start, count, {
      total: true,
    });
    return { start, count: page.hits.length, total: await page.total(), urns: page.hits.map((h) => h.urn) };
  }

  /**
   * Removes the user as DataHub's removeUser does: the entity (with its tokens,
   * sessions, role and password, in one transaction), then the references to it
   * in other entities' aspects. What the user owns stays.
   */
  async remove(principal: Principal, urn: string): Promise<true> {
    await this.requireManage(principal);
    this.userUrn('urn', urn);
    if (urn === ADMIN_URN) throw forbidden(ADMIN_PROTECTED);
    await this.catalog.delete({ urn });
    await this.catalog.deleteReferences(urn, false);
    await recordAudit(this.audit, 'DeleteEntityEvent', principal.actorUrn, { entityUrn: urn }, this.clock());
    return true;
  }

  /** Writes the user's corpUserStatus aspect, as DataHub does; a SUSPENDED user's tokens and sessions stop working at once. */
  async setStatus(principal: Principal, urn: string, status: string): Promise<string> {
    await this.requireManage(principal);
    this.userUrn('urn', urn);
    if (!(USER_STATUSES as readonly string[]).includes(status)) throw badRequest(`Field 'status' must be one of ${USER_STATUSES.join(', ')}`);
    if (urn === ADMIN_URN) throw forbidden(ADMIN_PROTECTED);
    if (!(await this.catalog.exists(urn))) throw notFound(`User ${urn} does not exist`);
    const value = { status, lastModified: { time: this.clock(), actor: principal.actorUrn } };
    await this.catalog.ingest(
      [{ entityType: 'corpuser', urn, changeType: 'UPSERT', aspectName: 'corpUserStatus', value, systemMetadata: null }],
      principal.actorUrn,
    );
    await recordAudit(this.audit, 'UpdateUserEvent', principal.actorUrn, { entityUrn: urn, aspectName: 'corpUserStatus' }, value.lastModified.time);
    return urn;
  }

  /** DataHub's createInviteToken (always a new token) and getInviteToken (the current one, made if missing). */
  async inviteToken(principal: Principal, roleUrn: string | null | undefined, regenerate: boolean): Promise<string> {
    await this.requireManage(principal);
    return this.invitations.token(roleUrn, regenerate, principal.actorUrn);
  }
}
