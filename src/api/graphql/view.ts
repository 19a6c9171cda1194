import type { Json } from '../../storage/store.ts';
import { objects } from './associations.ts';
import { COMMON, existsField, fromAspect, str } from './entity-fields.ts';
import { typeOfEntity } from './entity-types.ts';
import type { GraphqlModule } from './schema.ts';

/** DataHub's DataHubView (a saved search filter), read from dataHubViewInfo; the view mutations return it. */
const typeDefs = /* GraphQL */ `
  enum DataHubViewType {
    PERSONAL
    GLOBAL
  }

  enum LogicalOperator {
    AND
    OR
  }

  type FacetFilter {
    field: String!
    condition: FilterOperator
    values: [String!]!
    negated: Boolean
  }

  type DataHubViewFilter {
    operator: LogicalOperator!
    filters: [FacetFilter!]!
  }

  type DataHubViewDefinition {
    entityTypes: [EntityType!]!
    filter: DataHubViewFilter!
  }

  type DataHubView implements Entity {
    urn: String!
    type: EntityType!
    viewType: DataHubViewType!
    name: String!
    description: String
    definition: DataHubViewDefinition!
    exists: Boolean
  }
`;

const criterion = (c: Json) => ({
  field: str(c.field) ?? '',
  condition: str(c.condition) ?? 'EQUAL',
  values: Array.isArray(c.values) ? c.values.filter((v) => typeof v === 'string') : str(c.value) !== null ? [str(c.value)] : [],
  negated: c.negated === true,
});

/** DataHub's DataHubViewMapper: one conjunction is AND of its criteria; several are OR of each one's first criterion. */
function viewFilter(filter: Json | undefined) {
  const or = objects(filter?.or);
  if (or.length <= 1) return { operator: 'AND', filters: objects(or[0]?.and).map(criterion) };
  return { operator: 'OR', filters: or.flatMap((g) => objects(g.and).slice(0, 1).map(criterion)) };
}

const info = (map: (v: Json) => unknown) => fromAspect('dataHubViewInfo', map);

export const viewModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    DataHubView: {
      ...COMMON,
      viewType: info((v) => (v.type === 'GLOBAL' ? 'GLOBAL' : 'PERSONAL')),
      name: info((v) => str(v.name) ?? ''),
      description: info((v) => str(v.description)),
      definition: info((v) => {
        const d = (v.definition as Json | undefined) ?? {};
        return {
          entityTypes: (Array.isArray(d.entityTypes) ? d.entityTypes : []).filter((t): t is string => typeof t === 'string').map(typeOfEntity),
          filter: viewFilter(d.filter as Json | undefined),
        };
      }),
      exists: existsField,
    },
  },
};
