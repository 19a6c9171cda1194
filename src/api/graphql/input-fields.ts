import { parseUrn, schemaFieldUrn } from '../../catalog/urn.ts';
import type { Json } from '../../storage/store.ts';
import { objects } from './associations.ts';
import { str } from './entity-fields.ts';
import { entityRef } from './entity-refs.ts';
import type { GraphqlContext, GraphqlModule } from './schema.ts';

/**
 * The schema fields a chart or dashboard reads (its inputFields aspect), each
 * with its SchemaField and the schemaField entity behind it; and an entity's
 * documentation aspect. Given to the types whose entity holds the aspect by
 * entity-aspect-fields.ts.
 */
const typeDefs = /* GraphQL */ `
  type InputField {
    schemaFieldUrn: String
    schemaField: SchemaField
  }

  type InputFields {
    fields: [InputField]
  }

  type DocumentationAssociation {
    documentation: String!
  }

  type Documentation {
    documentations: [DocumentationAssociation!]!
  }

  extend type SchemaField {
    "The schemaField entity of this field (its urn names the dataset and the field path)."
    schemaFieldEntity: SchemaFieldEntity
  }
`;

interface FieldSource {
  readonly datasetUrn: string;
  readonly field: Json;
}

/** The dataset a schemaField urn names, or null for another urn. */
function parentOf(urn: string | null): string | null {
  if (!urn) return null;
  try {
    const parsed = parseUrn(urn);
    return parsed.entityType === 'schemaField' ? (parsed.parts[0] ?? null) : null;
  } catch {
    return null;
  }
}

export function inputFields(_ctx: GraphqlContext, value: Json | undefined, urn: string) {
  if (!value) return null;
  return {
    fields: objects(value.fields).map((f) => {
      const fieldUrn = str(f.schemaFieldUrn);
      const field = f.schemaField as Json | undefined;
      return { schemaFieldUrn: fieldUrn, schemaField: field ? { datasetUrn: parentOf(fieldUrn) ?? urn, field } : null };
    }),
  };
}

export function documentation(_ctx: GraphqlContext, value: Json | undefined) {
  if (!value) return null;
  return { documentations: objects(value.documentations).map((d) => ({ documentation: str(d.documentation) ?? '' })) };
}

export const inputFieldsModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    SchemaField: {
      schemaFieldEntity: (f: FieldSource, _a, ctx) => entityRef(ctx, schemaFieldUrn(f.datasetUrn, String(f.field.fieldPath))),
    },
  },
};
