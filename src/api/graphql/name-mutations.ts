import type { NamedType } from '../../catalog/curation/names.ts';
import { curate, type Check } from './curation.ts';
import { onAnyDomain } from './data-product-mutations.ts';
import { manageChildren } from './glossary-mutations.ts';
import type { GraphqlContext, GraphqlModule } from './schema.ts';

/** DataHub's updateName (entity.graphql). */
const typeDefs = /* GraphQL */ `
  input UpdateNameInput {
    "The new name"
    name: String!
    "The urn of the glossary term or node, domain, group or data product to rename"
    urn: String!
  }

  extend type Mutation {
    "Renames a glossary term or node, a domain, a group (its display name) or a data product."
    updateName(input: UpdateNameInput!): Boolean
  }
`;

/** UpdateNameResolver's privilege for each type it renames. */
async function renameCheck(ctx: GraphqlContext, type: NamedType, urn: string): Promise<Check> {
  switch (type) {
    case 'glossaryTerm':
    case 'glossaryNode':
      return manageChildren(await ctx.app.glossary.parentOf(urn));
    case 'domain':
      return ['manageDomains'];
    case 'corpGroup':
      return ['manageUsers'];
    case 'dataProduct':
      // EntityAspectAuthorizationUtils.isAuthorizedToRenameDataProduct: managing products on one of its domains, or
      // EDIT_ENTITY on the product itself.
      return onAnyDomain(ctx, urn, ['writeEntity', urn]);
  }
}

export const nameMutationsModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Mutation: {
      updateName: async (_s, { input }: { input: { name: string; urn: string } }, ctx) => {
        const type = ctx.app.names.typeOf(input.urn);
        return curate(ctx, [await renameCheck(ctx, type, input.urn)], { n: 1, field: 'input' }, () =>
          ctx.app.names.rename(input.urn, input.name, ctx.principal.actorUrn),
        );
      },
    },
  },
};
