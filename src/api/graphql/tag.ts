import { COMMON, existsField, fromAspect, keyField, str } from './entity-fields.ts';
import { keyPart } from './entity-refs.ts';
import type { GraphqlModule } from './schema.ts';

/** DataHub's Tag; ownership, deprecation and status come from entity-aspect-fields.ts. */
const typeDefs = /* GraphQL */ `
  type Tag implements Entity {
    urn: String!
    type: EntityType!
    name: String! @deprecated
    properties: TagProperties
    editableProperties: EditableTagProperties @deprecated
    description: String @deprecated
    exists: Boolean
  }

  type TagProperties {
    name: String!
    description: String
    colorHex: String
  }

  type EditableTagProperties {
    name: String
    description: String
  }
`;

const properties = fromAspect('tagProperties', (v, e) => ({
  name: str(v.name) ?? keyPart(e, 'name') ?? '',
  description: str(v.description),
  colorHex: str(v.colorHex),
}));

export const tagModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Tag: {
      ...COMMON,
      name: keyField('name'),
      properties,
      editableProperties: properties,
      description: fromAspect('tagProperties', (v) => str(v.description)),
      exists: existsField,
    },
  },
};
