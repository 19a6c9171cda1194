import type { CreateGroupInput } from '../../catalog/curation/groups.ts';
import { curate, guarded, type Check } from './curation.ts';
import type { GraphqlModule } from './schema.ts';

/** DataHub's group mutations (entity.graphql): native groups and their members. */
const typeDefs = /* GraphQL */ `
  input CreateGroupInput {
    "The id in the urn (urn:li:corpGroup:<id>); a random one when absent."
    id: String
    name: String!
    description: String
  }

  input AddGroupMembersInput {
    groupUrn: String!
    userUrns: [String!]!
  }

  input RemoveGroupMembersInput {
    groupUrn: String!
    userUrns: [String!]!
  }

  extend type Mutation {
    "Creates a native group (MANAGE_USERS_AND_GROUPS); returns its urn."
    createGroup(input: CreateGroupInput!): String
    "Adds users to a native group (MANAGE_USERS_AND_GROUPS, or EDIT_GROUP_MEMBERS on the group)."
    addGroupMembers(input: AddGroupMembersInput!): Boolean
    removeGroupMembers(input: RemoveGroupMembersInput!): Boolean
    "Deletes a group and every reference to it (MANAGE_USERS_AND_GROUPS)."
    removeGroup(urn: String!): Boolean
  }
`;

type MembersInput = { groupUrn: string; userUrns: string[] };

/** DataHub's canEditGroupMembers: managing users and groups, or EDIT_GROUP_MEMBERS on that group. */
const editMembers = (group: string): Check => ['editGroupMembers', group, ['manageUsers']];

export const groupMutationsModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Mutation: {
      createGroup: (_s, { input }: { input: CreateGroupInput }, ctx) =>
        guarded(ctx, [['manageUsers']], { n: 3, field: 'input' }, () => ctx.app.groups.create(input, ctx.principal.actorUrn)),
      addGroupMembers: (_s, { input }: { input: MembersInput }, ctx) =>
        curate(ctx, [editMembers(input.groupUrn)], { n: input.userUrns.length, field: 'input.userUrns' }, () =>
          ctx.app.groups.addMembers(input.groupUrn, input.userUrns, ctx.principal.actorUrn),
        ),
      removeGroup: (_s, { urn }: { urn: string }, ctx) => curate(ctx, [['manageUsers']], { n: 0, field: 'urn' }, () => ctx.app.groups.remove(urn)),
      removeGroupMembers: (_s, { input }: { input: MembersInput }, ctx) =>
        curate(ctx, [editMembers(input.groupUrn)], { n: input.userUrns.length, field: 'input.userUrns' }, () =>
          ctx.app.groups.removeMembers(input.groupUrn, input.userUrns, ctx.principal.actorUrn),
        ),
    },
  },
};
