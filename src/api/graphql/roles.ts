import { isRoleUrn } from '../../auth/roles.ts';
import { badRequest } from '../../catalog/errors.ts';
import { parseUrn } from '../../catalog/urn.ts';
import type { GraphqlModule } from './schema.ts';

export const MAX_ROLE_ACTORS = 1000;

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
      role: (_s, _a, ctx) => ctx.app.catalog.store.getRole(ctx.principal.actorUrn).then((r) => r ?? null),
    },
    Mutation: {
      batchAssignRole: async (_s, { input }: { input: { roleUrn?: string | null; actors: string[] } }, ctx) => {
        await ctx.app.authorizer.require(ctx.principal, 'assignRoles');
        const role = input.roleUrn ?? null;
        if (role !== null && !isRoleUrn(role)) throw badRequest(`Role ${role} does not exist`);
        if (input.actors.length === 0 || input.actors.length > MAX_ROLE_ACTORS) {
          throw badRequest(`actors must list from 1 to ${MAX_ROLE_ACTORS} users`);
        }
        input.actors.forEach((a, i) => {
          if (parseUrn(a).entityType !== 'corpuser') throw badRequest(`actors[${i}]: ${a} is not a corpuser urn`);
        });
        const found = await ctx.app.catalog.store.existing(input.actors);
        const missing = input.actors.find((a) => !found.has(a));
        if (missing) throw badRequest(`Failed to assign role: user ${missing} does not exist`);
        await ctx.app.catalog.store.setRole(input.actors, role, ctx.principal.actorUrn, Date.now());
        return true;
      },
    },
  },
};
