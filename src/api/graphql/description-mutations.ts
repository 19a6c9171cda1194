import { parseUrn } from '../../catalog/urn.ts';
import type { SubResourceType } from '../../catalog/resource-refs.ts';
import { curate, resourceOf } from './curation.ts';
import type { GraphqlModule } from './schema.ts';

/** DataHub's updateDescription (entity.graphql). */
const typeDefs = /* GraphQL */ `
  input DescriptionUpdateInput {
    description: String!
    resourceUrn: String!
    subResourceType: SubResourceType
    "A dataset field path, with subResourceType DATASET_FIELD."
    subResource: String
  }

  extend type Mutation {
    """
    Sets the editable description of an entity (datasets, containers, domains, glossary terms and nodes, tags,
    groups, notebooks, ML entities, data products, applications) or of a dataset field; true.
    """
    updateDescription(input: DescriptionUpdateInput!): Boolean
  }
`;

interface DescriptionInput {
  readonly description: string;
  readonly resourceUrn: string;
  readonly subResourceType?: SubResourceType | null;
  readonly subResource?: string | null;
}

export const descriptionMutationsModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Mutation: {
      updateDescription: (_s, { input }: { input: DescriptionInput }, ctx) => {
        // DataHub's resolver takes a dataset's field when a subResourceType is given, with the column privilege.
        const onField = input.subResourceType != null && parseUrn(input.resourceUrn).entityType === 'dataset';
        return curate(ctx, [[onField ? 'editFieldDescription' : 'editDescription', input.resourceUrn]], { n: 1, field: 'input' }, () =>
          ctx.app.curation.updateDescription(input.description, resourceOf(input), { mutation: 'updateDescription', actor: ctx.principal.actorUrn }),
        );
      },
    },
  },
};
