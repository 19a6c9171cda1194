import type { CreateGlossaryEntityInput } from '../../catalog/curation/glossary.ts';
import { curate, guarded, type Check } from './curation.ts';
import type { GraphqlContext, GraphqlModule } from './schema.ts';

/** DataHub's business glossary mutations (entity.graphql). */
const typeDefs = /* GraphQL */ `
  input CreateGlossaryEntityInput {
    "The id in the urn (urn:li:glossaryTerm:<id>); a random one when absent."
    id: String
    name: String!
    description: String
    "The glossary node to file it under; the root when absent."
    parentNode: String
  }

  input UpdateParentNodeInput {
    "The new parent node; null files the entity at the root."
    parentNode: String
    resourceUrn: String!
  }

  extend type Mutation {
    "Creates a glossary term (MANAGE_GLOSSARIES, or managing the parent node's children); the creator owns it. Returns its urn."
    createGlossaryTerm(input: CreateGlossaryEntityInput!): String
    createGlossaryNode(input: CreateGlossaryEntityInput!): String
    "Moves a term or node under another node, or to the root; needs the right to manage both parents' children."
    updateParentNode(input: UpdateParentNodeInput!): Boolean
  }
`;

/** DataHub's canManageChildrenEntities: MANAGE_GLOSSARIES, or the children privileges on the parent node. */
export const manageChildren = (parent: string | null | undefined): Check =>
  parent != null ? ['manageGlossaryChildren', parent, ['manageGlossaries']] : ['manageGlossaries'];

const create =
  (kind: 'glossaryTerm' | 'glossaryNode') =>
  (_s: unknown, { input }: { input: CreateGlossaryEntityInput }, ctx: GraphqlContext) =>
    guarded(ctx, [manageChildren(input.parentNode)], { n: 3, field: 'input' }, () => ctx.app.glossary.create(kind, input, ctx.principal.actorUrn));

export const glossaryMutationsModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Mutation: {
      createGlossaryTerm: create('glossaryTerm'),
      createGlossaryNode: create('glossaryNode'),
      updateParentNode: async (_s, { input }: { input: { parentNode?: string | null; resourceUrn: string } }, ctx) => {
        const current = await ctx.app.glossary.parentOf(input.resourceUrn);
        return curate(ctx, [manageChildren(current), manageChildren(input.parentNode)], { n: 1, field: 'input' }, () =>
          ctx.app.glossary.updateParent(input.resourceUrn, input.parentNode ?? null, ctx.principal.actorUrn),
        );
      },
    },
  },
};
