import { parseTokenDuration } from '../../auth/durations.ts';
import { badRequest } from '../../catalog/errors.ts';
import { tokenUrn, type ListTokensInput } from '../../auth/access-tokens.ts';
import type { AccessTokenRecord } from '../../storage/store.ts';
import { entityRef } from './entity-refs.ts';
import type { FacetFilter } from './filters.ts';
import type { GraphqlModule } from './schema.ts';

const typeDefs = /* GraphQL */ `
  enum AccessTokenType {
    PERSONAL
    "A service account's token (MANAGE_SERVICE_ACCOUNTS)."
    SERVICE_ACCOUNT
  }

  enum AccessTokenDuration {
    ONE_HOUR
    ONE_DAY
    ONE_WEEK
    ONE_MONTH
    THREE_MONTHS
    SIX_MONTHS
    ONE_YEAR
    NO_EXPIRY
  }

  input CreateAccessTokenInput {
    type: AccessTokenType!
    actorUrn: String!
    duration: AccessTokenDuration!
    name: String!
    description: String
  }

  type AccessTokenMetadata implements Entity {
    urn: String!
    type: EntityType!
    "The stored token id (a salted hash of the token): what revokeAccessToken takes."
    id: String!
    name: String!
    description: String
    actorUrn: String!
    ownerUrn: String!
    "The user who created the token."
    owner: CorpUser
    createdAt: Long!
    expiresAt: Long
  }

  type AccessToken {
    "The token itself: shown once, never stored."
    accessToken: String!
    metadata: AccessTokenMetadata
  }

  input ListAccessTokenInput {
    start: Int
    count: Int
    "ownerUrn, actorUrn and name (EQUAL, one value), expiresAt (EQUAL, LESS_THAN, GREATER_THAN and their _OR_EQUAL_TO forms)."
    filters: [FacetFilterInput!]
  }

  type ListAccessTokenResult {
    start: Int!
    count: Int!
    total: Int!
    tokens: [AccessTokenMetadata!]!
  }

  extend type Query {
    "Tokens newest expiry first: your own, or anyone's with MANAGE_ACCESS_TOKENS."
    listAccessTokens(input: ListAccessTokenInput!): ListAccessTokenResult!
    "What a raw token is: its metadata, for those with MANAGE_ACCESS_TOKENS."
    getAccessTokenMetadata(token: String!): AccessTokenMetadata!
  }

  extend type Mutation {
    "Creates a personal access token (for another user it needs MANAGE_ACCESS_TOKENS), or a service account's (MANAGE_SERVICE_ACCOUNTS)."
    createAccessToken(input: CreateAccessTokenInput!): AccessToken
    "Revokes a token by its id; it stops working on the next request, in every process."
    revokeAccessToken(tokenId: String!): Boolean!
  }
`;

const metadata = (t: AccessTokenRecord) => ({ urn: tokenUrn(t.id), type: 'ACCESS_TOKEN', ...t });

type TokenFilter = Omit<ListTokensInput, 'start' | 'count'>;

/** DataHub's token list filters on the token index: owner, actor, name and expiry. Anything else is refused by name. */
function tokenFilter(filters: readonly FacetFilter[] | null | undefined): TokenFilter {
  const out: { -readonly [K in keyof TokenFilter]: TokenFilter[K] } = {};
  for (const [i, f] of (filters ?? []).entries()) {
    const values = f.values ?? [];
    const condition = f.condition ?? 'EQUAL';
    if (f.negated || values.length !== 1) throw badRequest(`filters[${i}] (${f.field}): give exactly one value, not negated`);
    const value = values[0]!;
    if ((f.field === 'ownerUrn' || f.field === 'actorUrn' || f.field === 'name') && condition === 'EQUAL') {
      out[f.field] = value;
      continue;
    }
    if (f.field !== 'expiresAt')
      throw badRequest(`filters[${i}]: tokens filter on ownerUrn, actorUrn, name (EQUAL) and expiresAt, not ${f.field} ${condition}`);
    const at = Number(value);
    if (!Number.isSafeInteger(at)) throw badRequest(`filters[${i}] (expiresAt): ${value} is not epoch milliseconds`);
    const bounds: Record<string, [number | undefined, number | undefined]> = {
      EQUAL: [at, at + 1],
      LESS_THAN: [undefined, at],
      LESS_THAN_OR_EQUAL_TO: [undefined, at + 1],
      GREATER_THAN: [at + 1, undefined],
      GREATER_THAN_OR_EQUAL_TO: [at, undefined],
    };
    const bound = bounds[condition];
    if (!bound) throw badRequest(`filters[${i}] (expiresAt): condition ${condition} is not supported`);
    if (bound[0] !== undefined) out.expiresAtFrom = Math.max(out.expiresAtFrom ?? bound[0], bound[0]);
    if (bound[1] !== undefined) out.expiresAtBefore = Math.min(out.expiresAtBefore ?? bound[1], bound[1]);
  }
  return out;
}

export const accessTokensModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Query: {
      listAccessTokens: async (_s, { input }: { input: { start?: number | null; count?: number | null; filters?: FacetFilter[] | null } }, ctx) => {
        const start = input.start ?? 0;
        const count = input.count ?? 20;
        const page = await ctx.app.accessTokens.list(ctx.principal, { start, count, ...tokenFilter(input.filters) });
        return { start, count: page.tokens.length, total: page.total, tokens: page.tokens.map(metadata) };
      },
      getAccessTokenMetadata: async (_s, { token }: { token: string }, ctx) => metadata(await ctx.app.accessTokens.metadataOf(ctx.principal, token)),
    },
    AccessTokenMetadata: {
      owner: (t: AccessTokenRecord, _a, ctx) => entityRef(ctx, t.ownerUrn),
    },
    Mutation: {
      createAccessToken: async (
        _s,
        { input }: { input: { type: 'PERSONAL' | 'SERVICE_ACCOUNT'; actorUrn: string; duration: string; name: string; description?: string | null } },
        ctx,
      ) => {
        const { token, record } = await ctx.app.accessTokens.create(ctx.principal, {
          type: input.type,
          actorUrn: input.actorUrn,
          duration: parseTokenDuration(input.duration),
          name: input.name,
          description: input.description ?? null,
        });
        return { accessToken: token, metadata: metadata(record) };
      },
      revokeAccessToken: (_s, { tokenId }: { tokenId: string }, ctx) => ctx.app.accessTokens.revoke(ctx.principal, tokenId),
    },
  },
};
