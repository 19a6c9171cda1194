import type { ServiceAccount } from '../../auth/service-accounts.ts';
import { relationshipsField } from './entity-aspect-fields.ts';
import { entityRef } from './entity-refs.ts';
import type { GraphqlModule } from './schema.ts';

/** DataHub's service accounts (auth.graphql); every field and action needs MANAGE_SERVICE_ACCOUNTS. */
const typeDefs = /* GraphQL */ `
  "A service account: a non-human identity (a corpuser with the SERVICE_ACCOUNT sub type) for programmatic API access."
  type ServiceAccount implements Entity {
    urn: String!
    type: EntityType!
    "The username without its service_ prefix."
    name: String!
    displayName: String
    "The account's description (its corpUserInfo title)."
    description: String
    createdBy: String
    createdAt: Long
    updatedAt: Long
    "The global view applied to the account's searches; null when none is set."
    defaultView: DataHubView
    relationships(input: RelationshipsInput!): EntityRelationshipsResult
  }

  input CreateServiceAccountInput {
    displayName: String
    description: String
  }

  input ListServiceAccountsInput {
    start: Int
    count: Int
    "A full-text query over the accounts."
    query: String
  }

  type ListServiceAccountsResult {
    start: Int!
    count: Int!
    total: Int!
    serviceAccounts: [ServiceAccount!]!
  }

  input UpdateServiceAccountDefaultViewInput {
    urn: String!
    "A global view's urn; null clears the default."
    defaultView: String
  }

  extend type Query {
    listServiceAccounts(input: ListServiceAccountsInput!): ListServiceAccountsResult!
    "A service account by urn; null when no such user exists."
    getServiceAccount(urn: String!): ServiceAccount
  }

  extend type Mutation {
    "Creates a service account with a generated id (service_<uuid>)."
    createServiceAccount(input: CreateServiceAccountInput!): ServiceAccount!
    "Deletes a service account with its tokens."
    deleteServiceAccount(urn: String!): Boolean!
    updateServiceAccountDefaultView(input: UpdateServiceAccountDefaultViewInput!): Boolean!
  }
`;

const account = (a: ServiceAccount) => ({ ...a, type: 'CORP_USER' });

export const serviceAccountsModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    ServiceAccount: {
      defaultView: (a: ServiceAccount, _args, ctx) => entityRef(ctx, a.defaultView),
      relationships: relationshipsField,
    },
    Query: {
      listServiceAccounts: async (_s, { input }: { input: { start?: number | null; count?: number | null; query?: string | null } }, ctx) => {
        const page = await ctx.app.serviceAccounts.list(ctx.principal, input);
        return { ...page, serviceAccounts: page.serviceAccounts.map(account) };
      },
      getServiceAccount: async (_s, { urn }: { urn: string }, ctx) => {
        const found = await ctx.app.serviceAccounts.get(ctx.principal, urn);
        return found && account(found);
      },
    },
    Mutation: {
      createServiceAccount: async (_s, { input }: { input: { displayName?: string | null; description?: string | null } }, ctx) =>
        account(await ctx.app.serviceAccounts.create(ctx.principal, input)),
      deleteServiceAccount: (_s, { urn }: { urn: string }, ctx) => ctx.app.serviceAccounts.delete(ctx.principal, urn),
      updateServiceAccountDefaultView: (_s, { input }: { input: { urn: string; defaultView?: string | null } }, ctx) =>
        ctx.app.serviceAccounts.setDefaultView(ctx.principal, input.urn, input.defaultView),
    },
  },
};
