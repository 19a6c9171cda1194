import type { GraphqlModule } from './schema.ts';

const typeDefs = /* GraphQL */ `
  input BatchAssignRoleInput {
    "urn:li:dataHubRole:Admin, Editor or Reader; null removes the actors' role."
    roleUrn: String
    actors: [String!]!
  }

  extend type AuthenticatedUser {
    "The caller's role urn, if any (Almanac addition)."
    role: String
  }

  extend type Mutation {
    "Assigns one role to users (needs MANAGE_POLICIES); all or nothing."
    batchAssignRole(input: BatchAssignRoleInput!): Boolean
  }
`;

export const rolesModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    AuthenticatedUser: {
      role: (_s, _a, ctx) => ctx.app.roles.roleOf(ctx.principal.actorUrn).then((r) => r ?? null),
    },
    Mutation: {
      batchAssignRole: async (_s, { input }: { input: { roleUrn?: string | null; actors: string[] } }, ctx) => {
        await ctx.app.authorizer.require(ctx.principal, 'assignRoles');
        await ctx.app.roles.assign(input.actors, input.roleUrn ?? null, ctx.principal.actorUrn);
        return true;
      },
    },
  },
};
