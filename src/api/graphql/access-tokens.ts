import { parseTokenDuration } from '../../auth/durations.ts';
import { badRequest } from '../../catalog/errors.ts';
import type { AccessTokenRecord } from '../../storage/store.ts';
import type { GraphqlModule } from './schema.ts';

const typeDefs = /* GraphQL */ `
  enum AccessTokenType {
    PERSONAL
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

  type AccessTokenMetadata {
    urn: String!
    type: EntityType
    "The stored token id (a salted hash of the token): what revokeAccessToken takes."
    id: String!
    name: String!
    description: String
    actorUrn: String!
    ownerUrn: String!
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
  }

  extend type Mutation {
    "Creates a personal access token; for another user it needs MANAGE_ACCESS_TOKENS."
    createAccessToken(input: CreateAccessTokenInput!): AccessToken
    "Revokes a token by its id; it stops working on the next request, in every process."
    revokeAccessToken(tokenId: String!): Boolean!
  }
`;

const metadata = (t: AccessTokenRecord) => ({ urn: `urn:li:dataHubAccessToken:${t.id}`, ...t });

interface FacetFilter {
  field: string;
  value?: string | null;
  values?: string[] | null;
  negated?: boolean | null;
}

/** DataHub filters its token list by ownerUrn (and actorUrn); Almanac supports ownerUrn. */
function ownerFilter(filters: readonly FacetFilter[] | null | undefined): string | undefined {
  let owner: string | undefined;
  for (const [i, f] of (filters ?? []).entries()) {
    const values = f.values ?? (f.value != null ? [f.value] : []);
    if (f.field !== 'ownerUrn' || f.negated || values.length !== 1) {
      throw badRequest(`filters[${i}]: only a single-value ownerUrn filter is supported`);
    }
    owner = values[0];
  }
  return owner;
}

export const accessTokensModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Query: {
      listAccessTokens: async (_s, { input }: { input: { start?: number | null; count?: number | null; filters?: FacetFilter[] | null } }, ctx) => {
        const start = input.start ?? 0;
        const count = input.count ?? 20;
        const page = await ctx.app.accessTokens.list(ctx.principal, { start, count, ownerUrn: ownerFilter(input.filters) });
        return { start, count: page.tokens.length, total: page.total, tokens: page.tokens.map(metadata) };
      },
    },
    Mutation: {
      createAccessToken: async (
        _s,
        { input }: { input: { actorUrn: string; duration: string; name: string; description?: string | null } },
        ctx,
      ) => {
        const { token, record } = await ctx.app.accessTokens.create(ctx.principal, {
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
