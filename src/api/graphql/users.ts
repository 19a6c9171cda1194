import { USER_STATUSES } from '../../auth/user-admin.ts';
import { entityRef } from './entity-refs.ts';
import { fromAspect } from './entity-fields.ts';
import type { GraphqlModule } from './schema.ts';

const typeDefs = /* GraphQL */ `
  enum CorpUserStatus {
    ACTIVE
    SUSPENDED
  }

  extend type CorpUser {
    "From the corpUserStatus aspect; null when the user has none."
    status: CorpUserStatus
  }

  input ListUsersInput {
    start: Int
    count: Int
    query: String
  }

  type ListUsersResult {
    start: Int!
    count: Int!
    total: Int!
    users: [CorpUser!]!
  }

  input CreateInviteTokenInput {
    roleUrn: String
  }

  input GetInviteTokenInput {
    roleUrn: String
  }

  type InviteToken {
    inviteToken: String!
  }

  extend type Query {
    "Users, a page at a time, optionally matching a full-text query."
    listUsers(input: ListUsersInput!): ListUsersResult
    "The current invite token for a role (made if there is none); needs MANAGE_USERS_AND_GROUPS."
    getInviteToken(input: GetInviteTokenInput!): InviteToken
  }

  extend type Mutation {
    "Removes a user with its tokens, sessions, role and password; needs MANAGE_USERS_AND_GROUPS."
    removeUser(urn: String!): Boolean
    "Suspends or reactivates a user; needs MANAGE_USERS_AND_GROUPS. Answers the user's urn."
    updateUserStatus(urn: String!, status: CorpUserStatus!): String
    "A new invite token for a role (the previous one stops working); needs MANAGE_USERS_AND_GROUPS."
    createInviteToken(input: CreateInviteTokenInput!): InviteToken
  }
`;

type InviteInput = { input: { roleUrn?: string | null } };

export const usersModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    CorpUser: {
      status: fromAspect('corpUserStatus', (v) => ((USER_STATUSES as readonly unknown[]).includes(v.status) ? v.status : null)),
    },
    Query: {
      listUsers: async (_s, { input }: { input: { start?: number | null; count?: number | null; query?: string | null } }, ctx) => {
        const page = await ctx.app.users.list(input);
        return { start: page.start, count: page.count, total: page.total, users: await Promise.all(page.urns.map((urn) => entityRef(ctx, urn))) };
      },
      getInviteToken: async (_s, { input }: InviteInput, ctx) => ({
        inviteToken: await ctx.app.users.inviteToken(ctx.principal, input.roleUrn, false),
      }),
    },
    Mutation: {
      removeUser: (_s, { urn }: { urn: string }, ctx) => ctx.app.users.remove(ctx.principal, urn),
      updateUserStatus: (_s, { urn, status }: { urn: string; status: string }, ctx) => ctx.app.users.setStatus(ctx.principal, urn, status),
      createInviteToken: async (_s, { input }: InviteInput, ctx) => ({
        inviteToken: await ctx.app.users.inviteToken(ctx.principal, input.roleUrn, true),
      }),
    },
  },
};
