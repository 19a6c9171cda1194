import type { CreateDataProductInput } from '../../catalog/curation/data-products.ts';
import { curate, guarded, type Check, type Grant } from './curation.ts';
import { entityRef } from './entity-refs.ts';
import type { GraphqlContext, GraphqlModule } from './schema.ts';

/** DataHub's data product mutations (entity.graphql). */
const typeDefs = /* GraphQL */ `
  input CreateDataProductPropertiesInput {
    "A display name for the DataProduct"
    name: String!
    description: String
  }

  input CreateDataProductInput {
    properties: CreateDataProductPropertiesInput!
    "The domain the data product belongs to."
    domainUrn: String!
    "The id in the urn (urn:li:dataProduct:<id>); a random one when absent."
    id: String
  }

  input UpdateDataProductInput {
    "A display name for the DataProduct"
    name: String
    description: String
  }

  input BatchSetDataProductInput {
    "The product the assets join; null removes them from every product."
    dataProductUrn: String
    resourceUrns: [String!]!
  }

  input BatchSetDataProductsInput {
    dataProductUrns: [String!]!
    resourceUrns: [String!]!
  }

  extend type Mutation {
    "Creates a data product in a domain (EDIT_ENTITY or MANAGE_DATA_PRODUCTS on the domain); the creator owns it."
    createDataProduct(input: CreateDataProductInput!): DataProduct
    updateDataProduct(urn: String!, input: UpdateDataProductInput!): DataProduct
    "Deletes a data product (managing data products on one of its domains, or EDIT_ENTITY on it)."
    deleteDataProduct(urn: String!): Boolean
    "Adds assets to a data product, or with no product removes them from every product listing them."
    batchSetDataProduct(input: BatchSetDataProductInput!): Boolean
    "Adds assets to each product, leaving their other products (EDIT_ENTITY_DATA_PRODUCTS on each asset)."
    batchAddToDataProducts(input: BatchSetDataProductsInput!): Boolean
    "Removes assets from each product, leaving their other products (EDIT_ENTITY_DATA_PRODUCTS on each asset)."
    batchRemoveFromDataProducts(input: BatchSetDataProductsInput!): Boolean
  }
`;

/** DataHub's isAuthorizedToManageDataProductsOnAnyDomain, and what else may stand in for it. */
export async function onAnyDomain(ctx: GraphqlContext, productUrn: string, ...others: Grant[]): Promise<Check> {
  // A product in no domain has no manager: EDIT_ENTITY on the product itself is asked instead.
  const [first = productUrn, ...rest] = await ctx.app.dataProducts.domainsOf(productUrn);
  return ['manageDataProducts', first, ...rest.map((d): Grant => ['manageDataProducts', d]), ...others];
}

type ProductsInput = { dataProductUrns: string[]; resourceUrns: string[] };

/** DataHub's asset-side check (DataProductResolverUtils.verifyResources): EDIT_ENTITY_DATA_PRODUCTS on every asset. */
const assetSide = (resourceUrns: readonly string[]): Check[] => resourceUrns.map((u): Check => ['editDataProducts', u]);

export const dataProductMutationsModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Mutation: {
      createDataProduct: async (_s, { input }: { input: CreateDataProductInput }, ctx) =>
        entityRef(
          ctx,
          await guarded(ctx, [['manageDataProducts', input.domainUrn]], { n: 4, field: 'input' }, () =>
            ctx.app.dataProducts.create(input, ctx.principal.actorUrn),
          ),
        ),
      updateDataProduct: async (_s, { urn, input }: { urn: string; input: { name?: string | null; description?: string | null } }, ctx) => {
        await curate(ctx, [await onAnyDomain(ctx, urn)], { n: 1, field: 'input' }, () =>
          ctx.app.dataProducts.update(urn, input, ctx.principal.actorUrn),
        );
        return entityRef(ctx, urn);
      },
      deleteDataProduct: async (_s, { urn }: { urn: string }, ctx) =>
        curate(ctx, [await onAnyDomain(ctx, urn, ['deleteEntity', urn])], { n: 0, field: 'urn' }, () => ctx.app.catalog.delete({ urn })),
      batchSetDataProduct: async (_s, { input }: { input: { dataProductUrn?: string | null; resourceUrns: string[] } }, ctx) => {
        const product = input.dataProductUrn;
        if (product != null) {
          return curate(ctx, [await onAnyDomain(ctx, product)], { n: 1, field: 'input' }, () =>
            ctx.app.dataProducts.addAssets(product, input.resourceUrns, ctx.principal.actorUrn),
          );
        }
        return curate(ctx, assetSide(input.resourceUrns), { n: input.resourceUrns.length, field: 'input.resourceUrns' }, () =>
          ctx.app.dataProducts.removeAssets(input.resourceUrns, ctx.principal.actorUrn),
        );
      },
      batchAddToDataProducts: (_s, { input }: { input: ProductsInput }, ctx) =>
        curate(ctx, assetSide(input.resourceUrns), { n: input.dataProductUrns.length, field: 'input.dataProductUrns' }, () =>
          ctx.app.dataProducts.addToProducts('batchAddToDataProducts', input.dataProductUrns, input.resourceUrns, ctx.principal.actorUrn),
        ),
      batchRemoveFromDataProducts: (_s, { input }: { input: ProductsInput }, ctx) =>
        curate(ctx, assetSide(input.resourceUrns), { n: input.dataProductUrns.length, field: 'input.dataProductUrns' }, () =>
          ctx.app.dataProducts.removeFromProducts(input.dataProductUrns, input.resourceUrns, ctx.principal.actorUrn),
        ),
    },
  },
};
