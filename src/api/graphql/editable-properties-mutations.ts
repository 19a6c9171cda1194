import { entityRef } from './entity-refs.ts';
import { curate } from './curation.ts';
import type { GraphqlContext, GraphqlModule } from './schema.ts';

/** The types whose description DataHub edits through update<Type>(urn, input: { editableProperties }). */
const TYPES = [
  ['Chart', 'chart'],
  ['Dashboard', 'dashboard'],
  ['DataFlow', 'dataFlow'],
  ['DataJob', 'dataJob'],
] as const;

/**
 * DataHub's updateChart, updateDashboard, updateDataFlow and updateDataJob, for their `editableProperties` (the way its
 * UI edits those entities' descriptions: updateDescription refuses them). DataHub's deprecated `ownership` and
 * `globalTags` inputs are not taken: the tag and owner mutations do that.
 */
const typeDefs = /* GraphQL */ `
  ${TYPES.map(
    ([type]) => `
  input ${type}EditablePropertiesUpdate {
    description: String!
  }

  input ${type}UpdateInput {
    editableProperties: ${type}EditablePropertiesUpdate
  }`,
  ).join('\n')}

  extend type Mutation {
    ${TYPES.map(([type]) => `"Sets the ${type}'s editable description; answers the ${type}."\n    update${type}(urn: String!, input: ${type}UpdateInput!): ${type}`).join('\n    ')}
  }
`;

interface UpdateArgs {
  readonly urn: string;
  readonly input: { readonly editableProperties?: { readonly description: string } | null };
}

const update =
  (entityType: string) =>
  async (_s: unknown, { urn, input }: UpdateArgs, ctx: GraphqlContext) => {
    const description = input.editableProperties?.description;
    if (description !== undefined) {
      await curate(ctx, [['editDescription', urn]], { n: 1, field: 'input' }, () =>
        ctx.app.curation.updateEditableProperties(entityType, urn, description, { mutation: `update${entityType}`, actor: ctx.principal.actorUrn }),
      );
    }
    return entityRef(ctx, urn);
  };

export const editablePropertiesMutationsModule: GraphqlModule = {
  typeDefs,
  resolvers: { Mutation: Object.fromEntries(TYPES.map(([type, entityType]) => [`update${type}`, update(entityType)])) },
};
