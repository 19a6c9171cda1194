import { COMMON, existsField, fromAspect, keyField, str } from './entity-fields.ts';
import { listEntities, listPaging } from './entity-search-fields.ts';
import type { GraphqlModule } from './schema.ts';

/** DataHub's CorpGroup and listGroups (MANAGE_USERS_AND_GROUPS, as DataHub's ListGroupsResolver). */
const typeDefs = /* GraphQL */ `
  type CorpGroup implements Entity {
    urn: String!
    type: EntityType!
    name: String!
    properties: CorpGroupProperties
    editableProperties: CorpGroupEditableProperties
    info: CorpGroupInfo @deprecated
    exists: Boolean
  }

  type CorpGroupProperties {
    displayName: String
    description: String
    email: String
    slack: String
  }

  type CorpGroupInfo {
    displayName: String
    description: String
    email: String
  }

  type CorpGroupEditableProperties {
    description: String
    slack: String
    email: String
    pictureLink: String
  }

  input ListGroupsInput {
    start: Int
    count: Int
    query: String
  }

  type ListGroupsResult {
    start: Int!
    count: Int!
    total: Int!
    groups: [CorpGroup!]!
  }

  extend type Query {
    "Groups, newest first, a page at a time; needs MANAGE_USERS_AND_GROUPS."
    listGroups(input: ListGroupsInput!): ListGroupsResult
  }
`;

export const corpGroupModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Query: {
      listGroups: async (_s, { input }: { input: { start?: number | null; count?: number | null; query?: string | null } }, ctx) => {
        await ctx.app.authorizer.require(ctx.principal, 'manageUsers');
        const page = await listEntities(
          ctx,
          { entity: 'corpGroup', query: input.query, filter: [], sort: [{ field: 'createdTime', order: 'DESCENDING' }] },
          listPaging(input, 20),
        );
        return { start: page.start, count: page.count, total: page.total, groups: page.entities };
      },
    },
    CorpGroup: {
      ...COMMON,
      name: keyField('name'),
      properties: fromAspect('corpGroupInfo'),
      info: fromAspect('corpGroupInfo'),
      editableProperties: fromAspect('corpGroupEditableInfo', (v) => ({
        description: str(v.description),
        slack: str(v.slack),
        email: str(v.email),
        pictureLink: str(v.pictureLink),
      })),
      exists: existsField,
    },
  },
};
