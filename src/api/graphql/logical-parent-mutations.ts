import { setLogicalParent } from '../../catalog/curation/logical-parent.ts';
import { curate } from './curation.ts';
import type { GraphqlModule } from './schema.ts';

/** DataHub's setLogicalParent (logical.graphql); the read side is `logicalParent` on datasets and schema fields. */
const typeDefs = /* GraphQL */ `
  input SetLogicalParentInput {
    resourceUrn: String!
    "The parent; absent or null unsets it."
    parentUrn: String
  }

  extend type Mutation {
    "Sets or unsets an entity's logical parent (EDIT_ENTITY on the entity, as any write of it)."
    setLogicalParent(input: SetLogicalParentInput!): Boolean
  }
`;

export const logicalParentMutationsModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Mutation: {
      setLogicalParent: (_s, { input }: { input: { resourceUrn: string; parentUrn?: string | null } }, ctx) =>
        curate(ctx, [['writeEntity', input.resourceUrn]], { n: 1, field: 'input' }, () =>
          setLogicalParent(ctx.app.catalog, input.resourceUrn, input.parentUrn ?? null, ctx.principal.actorUrn, Date.now()),
        ),
    },
  },
};
