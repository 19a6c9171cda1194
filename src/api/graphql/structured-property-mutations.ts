import type {
  CreateStructuredPropertyInput,
  StructuredPropertyParams,
  UpdateStructuredPropertyInput,
} from '../../catalog/curation/structured-properties.ts';
import { structuredProperties } from './associations.ts';
import { curate, guarded } from './curation.ts';
import { entityRef } from './entity-refs.ts';
import type { GraphqlModule } from './schema.ts';

/** DataHub's structured property mutations (properties.graphql, forms.graphql's value inputs). */
const typeDefs = /* GraphQL */ `
  enum PropertyCardinality {
    SINGLE
    MULTIPLE
  }

  input PropertyValueInput {
    stringValue: String
    numberValue: Float
  }

  input StructuredPropertyInputParams {
    structuredPropertyUrn: String!
    values: [PropertyValueInput!]!
  }

  input UpsertStructuredPropertiesInput {
    assetUrn: String!
    structuredPropertyInputParams: [StructuredPropertyInputParams!]!
  }

  input RemoveStructuredPropertiesInput {
    assetUrn: String!
    structuredPropertyUrns: [String!]!
  }

  input TypeQualifierInput {
    allowedTypes: [String!]
  }

  input AllowedValueInput {
    stringValue: String
    numberValue: Float
    description: String
  }

  input StructuredPropertySettingsInput {
    isHidden: Boolean
    showInSearchFilters: Boolean
    showInAssetSummary: Boolean
    hideInAssetSummaryWhenEmpty: Boolean
    showAsAssetBadge: Boolean
    showInColumnsTable: Boolean
  }

  input CreateStructuredPropertyInput {
    id: String
    qualifiedName: String
    displayName: String
    description: String
    immutable: Boolean
    "A data type urn, e.g. urn:li:dataType:datahub.string"
    valueType: String!
    typeQualifier: TypeQualifierInput
    allowedValues: [AllowedValueInput!]
    cardinality: PropertyCardinality
    entityTypes: [String!]!
    allowedPlatforms: [String!]
    "Where the property is shown (structuredPropertySettings); a hidden property shown anywhere is refused."
    settings: StructuredPropertySettingsInput
  }

  input UpdateTypeQualifierInput {
    "Appended to the allowed entity types (urns such as urn:li:entityType:datahub.corpuser)."
    newAllowedTypes: [String!]
  }

  input UpdateStructuredPropertyInput {
    urn: String!
    displayName: String
    description: String
    immutable: Boolean
    typeQualifier: UpdateTypeQualifierInput
    "Appended to the allowed values (never replaced, for backwards compatibility)."
    newAllowedValues: [AllowedValueInput!]
    "true raises the cardinality to MULTIPLE; it never goes back to SINGLE."
    setCardinalityAsMultiple: Boolean
    newEntityTypes: [String!]
    newAllowedPlatforms: [String!]
    "Where the property is shown (structuredPropertySettings); a hidden property shown anywhere is refused."
    settings: StructuredPropertySettingsInput
  }

  input DeleteStructuredPropertyInput {
    urn: String!
  }

  extend type Mutation {
    "Assigns values of structured properties to an entity, checked against each definition (EDIT_ENTITY or EDIT_ENTITY_PROPERTIES)."
    upsertStructuredProperties(input: UpsertStructuredPropertiesInput!): StructuredProperties!
    removeStructuredProperties(input: RemoveStructuredPropertiesInput!): StructuredProperties!
    "Defines a structured property (MANAGE_STRUCTURED_PROPERTIES)."
    createStructuredProperty(input: CreateStructuredPropertyInput!): StructuredPropertyEntity!
    "Changes a structured property's definition, append only (MANAGE_STRUCTURED_PROPERTIES)."
    updateStructuredProperty(input: UpdateStructuredPropertyInput!): StructuredPropertyEntity!
    "Hard deletes a structured property and every value of it assigned (MANAGE_STRUCTURED_PROPERTIES)."
    deleteStructuredProperty(input: DeleteStructuredPropertyInput!): Boolean!
  }
`;

export const structuredPropertyMutationsModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Mutation: {
      upsertStructuredProperties: async (
        _s,
        { input }: { input: { assetUrn: string; structuredPropertyInputParams: StructuredPropertyParams[] } },
        ctx,
      ) => {
        const value = await guarded(ctx, [['editProperties', input.assetUrn]], { n: 1, field: 'input' }, () =>
          ctx.app.structuredProperties.upsert(input.assetUrn, input.structuredPropertyInputParams, ctx.principal.actorUrn),
        );
        return structuredProperties(ctx, value, input.assetUrn);
      },
      removeStructuredProperties: async (_s, { input }: { input: { assetUrn: string; structuredPropertyUrns: string[] } }, ctx) => {
        const value = await guarded(ctx, [['editProperties', input.assetUrn]], { n: 1, field: 'input' }, () =>
          ctx.app.structuredProperties.remove(input.assetUrn, input.structuredPropertyUrns, ctx.principal.actorUrn),
        );
        return structuredProperties(ctx, value, input.assetUrn);
      },
      createStructuredProperty: async (_s, { input }: { input: CreateStructuredPropertyInput }, ctx) =>
        entityRef(
          ctx,
          await guarded(ctx, [['manageStructuredProperties']], { n: 2, field: 'input' }, () =>
            ctx.app.structuredProperties.create(input, ctx.principal.actorUrn),
          ),
        ),
      updateStructuredProperty: async (_s, { input }: { input: UpdateStructuredPropertyInput }, ctx) =>
        entityRef(
          ctx,
          await guarded(ctx, [['updateStructuredProperty']], { n: 1, field: 'input' }, () =>
            ctx.app.structuredProperties.update(input, ctx.principal.actorUrn),
          ),
        ),
      deleteStructuredProperty: (_s, { input }: { input: { urn: string } }, ctx) =>
        curate(ctx, [['deleteStructuredProperty']], { n: 0, field: 'input' }, () => ctx.app.structuredProperties.delete(input.urn)),
    },
  },
};
