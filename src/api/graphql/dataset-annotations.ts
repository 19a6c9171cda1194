import type { Json } from '../../storage/store.ts';
import { customPropertiesEntries, glossaryTerms, globalTags } from './associations.ts';
import type { GraphqlModule } from './schema.ts';

/**
 * What DataHub's GraphQL shows of a dataset's custom properties and of the
 * tags and terms its schema fields carry. The entity-level owners, tags,
 * terms and domain come from entity-aspect-fields.ts, as for every type.
 */
const typeDefs = /* GraphQL */ `
  extend type DatasetProperties {
    customProperties: [CustomPropertiesEntry!]
  }

  extend type SchemaField {
    "The field's tags in schemaMetadata."
    tags: GlobalTags
    globalTags: GlobalTags @deprecated(reason: "Use tags")
    "The field's glossary terms in schemaMetadata."
    glossaryTerms: GlossaryTerms
  }
`;

interface FieldSource {
  readonly datasetUrn: string;
  readonly field: Json;
}

const fieldTags = (f: FieldSource, _a: unknown, ctx: Parameters<typeof globalTags>[0]) =>
  globalTags(ctx, f.field.globalTags as Json | undefined, f.datasetUrn);

export const datasetAnnotationsModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    DatasetProperties: {
      // customProperties is a string map in datasetProperties; DataHub lists it as entries.
      customProperties: (p: { customProperties?: unknown; associatedUrn: string }) => customPropertiesEntries(p.customProperties, p.associatedUrn),
    },
    SchemaField: {
      tags: fieldTags,
      globalTags: fieldTags,
      glossaryTerms: (f: FieldSource, _a, ctx) => glossaryTerms(ctx, f.field.glossaryTerms as Json | undefined, f.datasetUrn),
    },
  },
};
