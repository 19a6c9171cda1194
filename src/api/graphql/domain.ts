import { customPropertiesEntries } from './associations.ts';
import { COMMON, existsField, fromAspect, keyField, named, parentChain } from './entity-fields.ts';
import { entityRef, type EntitySource } from './entity-refs.ts';
import { listEntities, listPaging, scopedSearch, type ScopedSearchInput } from './entity-search-fields.ts';
import type { GraphqlModule } from './schema.ts';

/** DataHub's Domain with its parent hierarchy, its entities and listDomains. */
const typeDefs = /* GraphQL */ `
  type Domain implements Entity {
    urn: String!
    type: EntityType!
    id: String!
    properties: DomainProperties
    "The parent domain, its parent, ... nearest first."
    parentDomains: ParentDomainsResult
    "Entities in the domain (the searchable types), 20 a page by default."
    entities(input: DomainEntitiesInput): SearchResults
    exists: Boolean
  }

  type DomainProperties {
    name: String!
    description: String
    customProperties: [CustomPropertiesEntry!]
  }

  type ParentDomainsResult {
    count: Int!
    domains: [Entity!]!
  }

  input DomainEntitiesInput {
    query: String
    start: Int
    count: Int
    filters: [FacetFilterInput!]
  }

  input ListDomainsInput {
    start: Int
    count: Int
    query: String
    "The parent whose child domains are listed; the root domains when absent."
    parentDomain: String
  }

  type ListDomainsResult {
    start: Int!
    count: Int!
    total: Int!
    domains: [Domain!]!
  }

  extend type Query {
    "Domains (the root ones, or a parent's children), newest first, a page at a time."
    listDomains(input: ListDomainsInput!): ListDomainsResult
  }
`;

/** DataHub's list order: newest first. */
const NEWEST = [{ field: 'createdTime', order: 'DESCENDING' as const }];

interface ListDomainsInput {
  start?: number | null;
  count?: number | null;
  query?: string | null;
  parentDomain?: string | null;
}

export const domainModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Query: {
      listDomains: async (_s, { input }: { input: ListDomainsInput }, ctx) => {
        // DataHub's DomainUtils.buildParentDomainFilter: the roots have no parent; a child names its parent.
        const filter = input.parentDomain
          ? [
              [
                { field: 'hasParentDomain', values: ['true'] },
                { field: 'parentDomain', values: [input.parentDomain] },
              ],
            ]
          : [[{ field: 'hasParentDomain', values: ['false'] }]];
        const page = await listEntities(ctx, { entity: 'domain', query: input.query, filter, sort: NEWEST }, listPaging(input, 20));
        return { start: page.start, count: page.count, total: page.total, domains: page.entities };
      },
    },
    Domain: {
      ...COMMON,
      id: keyField('id'),
      properties: fromAspect('domainProperties', (v, e) => ({
        ...named(v.name, null, v),
        customProperties: customPropertiesEntries(v.customProperties, e.urn),
      })),
      parentDomains: async (e: EntitySource, _a, ctx) => {
        const chain = await parentChain(ctx, e.urn, 'domainProperties', 'parentDomain');
        const domains = (await Promise.all(chain.map((urn) => entityRef(ctx, urn)))).filter((d) => d !== null);
        return { count: domains.length, domains };
      },
      entities: (e: EntitySource, { input }: { input?: ScopedSearchInput | null }, ctx) =>
        scopedSearch(ctx, input, [{ field: 'domains', values: [e.urn] }]),
      exists: existsField,
    },
  },
};
