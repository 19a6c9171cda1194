import { logicalParentGrantees, setLogicalParent } from '../../catalog/curation/logical-parent.ts';
import { curate, type Check, type Grant } from './curation.ts';
import type { GraphqlModule } from './schema.ts';

/** DataHub's setLogicalParent (logical.graphql); the read side is `logicalParent` on datasets and schema fields. */
const typeDefs = /* GraphQL */ `
  input SetLogicalParentInput {
    resourceUrn: String!
    "The parent; absent or null unsets it."
    parentUrn: String
  }

  extend type Mutation {
    "Sets or unsets an entity's logical parent (EDIT_ENTITY on the entity and on the parent; for a schema field, on it or its dataset)."
    setLogicalParent(input: SetLogicalParentInput!): Boolean
  }
`;

/** EDIT_ENTITY on one side of the link: on the first grantee, or any of the others (DataHub's order). */
const editLink = (urn: string): Check => {
  const [first, ...others] = logicalParentGrantees(urn);
  return ['editLogicalParent', first, ...others.map((u): Grant => ['editLogicalParent', u])];
};

export const logicalParentMutationsModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Mutation: {
      setLogicalParent: (_s, { input }: { input: { resourceUrn: string; parentUrn?: string | null } }, ctx) =>
        curate(ctx, [input.resourceUrn, ...(input.parentUrn != null ? [input.parentUrn] : [])].map(editLink), { n: 1, field: 'input' }, () =>
          setLogicalParent(ctx.app.catalog, input.resourceUrn, input.parentUrn ?? null, ctx.principal.actorUrn, Date.now()),
        ),
    },
  },
};
