import crypto from 'node:crypto';
import type { Catalog } from '../catalog/catalog.ts';
import type { AspectEdits } from '../catalog/curation/aspect-edits.ts';
import { badRequest, forbidden } from '../catalog/errors.ts';
import type { EntitySearch } from '../catalog/search/entity-search.ts';
import { fullTextQuery } from '../catalog/search/search-filter.ts';
import { parseUrn } from '../catalog/urn.ts';
import type { Json, ReadParts, StoredAspect } from '../storage/store.ts';
import type { Authorizer } from './authorizer.ts';
import type { Principal } from './principal.ts';

/** DataHub's marks of a service account (ServiceAccountUtils): a corpuser whose subTypes name it, its username prefixed. */
export const SERVICE_ACCOUNT_SUB_TYPE = 'SERVICE_ACCOUNT';
const PREFIX = 'service_';
const USER_PREFIX = 'urn:li:corpuser:';

/** DataHub's listServiceAccounts defaults, and Almanac's bound on a page. */
const DEFAULT_PAGE = 10;
export const MAX_SERVICE_ACCOUNT_PAGE = 1000;

export interface ServiceAccount {
  readonly urn: string;
  /** The username without DataHub's `service_` prefix. */
  readonly name: string;
  readonly displayName: string | null;
  readonly description: string | null;
  readonly createdBy: string | null;
  readonly createdAt: number | null;
  readonly updatedAt: number | null;
  readonly defaultView: string | null;
}

export interface ServiceAccountPage {
  readonly start: number;
  readonly count: number;
  readonly total: number;
  readonly serviceAccounts: readonly ServiceAccount[];
}

const ASPECTS = ['subTypes', 'corpUserInfo', 'corpUserSettings'];

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export const isServiceAccount = (aspects: readonly StoredAspect[]): boolean => {
  const typeNames = aspects.find((a) => a.aspect === 'subTypes')?.value.typeNames;
  return Array.isArray(typeNames) && typeNames.includes(SERVICE_ACCOUNT_SUB_TYPE);
};

/** ServiceAccountUtils.mapToServiceAccount, with the times and creator the stored aspects hold. */
function accountOf(urn: string, aspects: readonly StoredAspect[]): ServiceAccount {
  const username = urn.slice(USER_PREFIX.length);
  const byName = new Map(aspects.map((a) => [a.aspect, a]));
  const info = byName.get('corpUserInfo');
  // subTypes is written once, when the account is made: its write is the creation.
  const created = byName.get('subTypes');
  const views = byName.get('corpUserSettings')?.value.views as Json | undefined;
  return {
    urn,
    name: username.startsWith(PREFIX) ? username.slice(PREFIX.length) : username,
    displayName: str(info?.value.displayName),
    description: str(info?.value.title),
    createdBy: created?.createdBy ?? null,
    createdAt: created?.createdOn ?? null,
    updatedAt: Math.max(0, ...aspects.map((a) => a.createdOn)) || null,
    defaultView: str(views?.defaultView),
  };
}

const refusal = (verb: string) => `Unauthorized to ${verb} service accounts. Please contact your DataHub administrator.`;

/**
 * DataHub's service accounts (the auth resolvers' ServiceAccount family): corpusers made for programs, marked by a
 * SERVICE_ACCOUNT sub type, that hold access tokens like any user and sign in with nothing else. Everything here
 * needs MANAGE_SERVICE_ACCOUNTS, refused with DataHub's message for the action. Creating is one ingest of the
 * account's aspects; deleting removes the user with its tokens, as removeUser does.
 */
export class ServiceAccounts {
  constructor(
    private readonly ports: Pick<ReadParts, 'aspects'>,
    private readonly catalog: Catalog,
    private readonly search: EntitySearch,
    private readonly edits: AspectEdits,
    private readonly authorizer: Authorizer,
  ) {}

  private async requireManage(principal: Principal, verb: string): Promise<void> {
    if (!(await this.authorizer.allows(principal, 'manageServiceAccounts'))) throw forbidden(refusal(verb));
  }

  /** The account's stored aspects, undefined when the user does not exist; refuses a user that is not a service account. */
  private async stored(urn: string): Promise<StoredAspect[] | undefined> {
    if (parseUrn(urn).entityType !== 'corpuser') throw badRequest(`The specified URN is not a service account: ${urn}`);
    const found = (await this.ports.aspects.getEntities([urn], ASPECTS)).get(urn);
    if (found !== undefined && !isServiceAccount(found)) throw badRequest(`The specified URN is not a service account: ${urn}`);
    return found;
  }

  /** Whether the urn names an existing service account (createAccessToken of type SERVICE_ACCOUNT asks). */
  async exists(urn: string): Promise<boolean> {
    if (parseUrn(urn).entityType !== 'corpuser') return false;
    const found = (await this.ports.aspects.getEntities([urn], ['subTypes'])).get(urn);
    return found !== undefined && isServiceAccount(found);
  }

  async create(principal: Principal, input: { displayName?: string | null; description?: string | null }): Promise<ServiceAccount> {
    await this.requireManage(principal, 'create');
    if (input.displayName != null && input.displayName.trim() === '') throw badRequest("Field 'displayName' must not be empty");
    const id = `${PREFIX}${crypto.randomUUID()}`;
    const urn = `${USER_PREFIX}${id}`;
    const info: Json = { active: true, displayName: input.displayName ?? id, ...(input.description != null ? { title: input.description } : {}) };
    const at = this.edits.now();
    await this.catalog.ingest(
      [
        ['corpUserInfo', info],
        ['subTypes', { typeNames: [SERVICE_ACCOUNT_SUB_TYPE] }],
      ].map(([aspectName, value]) => ({
        entityType: 'corpuser',
        urn,
        changeType: 'UPSERT' as const,
        aspectName: aspectName as string,
        value: value as Json,
        systemMetadata: { properties: { appSource: 'ui' } },
      })),
      principal.actorUrn,
    );
    return {
      urn,
      name: id.slice(PREFIX.length),
      displayName: input.displayName ?? null,
      description: input.description ?? null,
      createdBy: principal.actorUrn,
      createdAt: at,
      updatedAt: at,
      defaultView: null,
    };
  }

  /** getServiceAccount: null when no such user exists. */
  async get(principal: Principal, urn: string): Promise<ServiceAccount | null> {
    await this.requireManage(principal, 'view');
    const found = await this.stored(urn);
    return found === undefined ? null : accountOf(urn, found);
  }

  /** Service accounts in the search index's order, optionally matching a full-text query. */
  async list(principal: Principal, input: { start?: number | null; count?: number | null; query?: string | null }): Promise<ServiceAccountPage> {
    await this.requireManage(principal, 'list');
    const start = input.start ?? 0;
    const count = input.count ?? DEFAULT_PAGE;
    if (!Number.isInteger(start) || start < 0) throw badRequest("Field 'start' must be a non-negative integer");
    if (!Number.isInteger(count) || count < 0 || count > MAX_SERVICE_ACCOUNT_PAGE)
      throw badRequest(`Field 'count' must be an integer from 0 to ${MAX_SERVICE_ACCOUNT_PAGE}`);
    const page = await this.search.page(
      {
        entityTypes: ['corpuser'],
        query: fullTextQuery(input.query),
        filter: [[{ field: 'typeNames', values: [SERVICE_ACCOUNT_SUB_TYPE] }]],
        includeSoftDeleted: false,
        sort: [],
      },
      start,
      count,
      { total: true },
    );
    const urns = page.hits.map((h) => h.urn);
    const found = await this.ports.aspects.getEntities(urns, ASPECTS);
    const serviceAccounts = urns.flatMap((u) => {
      const aspects = found.get(u);
      return aspects === undefined ? [] : [accountOf(u, aspects)];
    });
    return { start, count: serviceAccounts.length, total: await page.total(), serviceAccounts };
  }

  /** deleteServiceAccount: the user with its tokens, sessions and role, in one transaction. */
  async delete(principal: Principal, urn: string): Promise<true> {
    await this.requireManage(principal, 'delete');
    if ((await this.stored(urn)) === undefined) throw badRequest(`Service account not found: ${urn}`);
    await this.catalog.delete({ urn });
    return true;
  }

  /** updateServiceAccountDefaultView: sets (a global view only) or clears the account's default view in corpUserSettings. */
  async setDefaultView(principal: Principal, urn: string, viewUrn: string | null | undefined): Promise<true> {
    await this.requireManage(principal, 'manage');
    if ((await this.stored(urn)) === undefined) throw badRequest(`URN ${urn} is not a service account.`);
    if (viewUrn != null) {
      const info = (await this.ports.aspects.getAspect(parseUrn(viewUrn).raw, 'dataHubViewInfo'))?.value;
      if (info === undefined) throw badRequest(`View ${viewUrn} does not exist.`);
      if (info.type !== 'GLOBAL') {
        throw badRequest('Only public (global) views can be set as the default view for a service account. Personal views are not supported.');
      }
    }
    await this.edits.apply(
      [
        {
          urn,
          entityType: 'corpuser',
          aspect: 'corpUserSettings',
          update: (current) => {
            // ServiceAccountUtils.getOrCreateSettings: a first settings aspect gets DataHub's default appearance.
            const settings: Json = current ?? { appearance: { showSimplifiedHomepage: false } };
            const { defaultView: _old, ...views } = (settings.views as Json | undefined) ?? {};
            return { ...settings, views: viewUrn != null ? { ...views, defaultView: viewUrn } : views };
          },
        },
      ],
      principal.actorUrn,
      this.edits.now(),
      (u) => `URN ${u} is not a service account.`,
    );
    return true;
  }
}
