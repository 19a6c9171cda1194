import { Kind, parse } from 'graphql';
import { badRequest } from '../../catalog/errors.ts';
import { parseUrn } from '../../catalog/urn.ts';
import { entityRef } from './entity-refs.ts';
import { ENTITY_TYPE_ROWS } from './entity-types.ts';
import type { GraphqlContext, GraphqlModule, Resolver } from './schema.ts';

/**
 * DataHub's root query for each entity type (`chart(urn)`, `domain(urn)`, ...),
 * and `entities(urns)` / `entityExists(urn)`. Each answers null when the entity
 * is not stored, as DataHub's loaders do; a malformed urn, or one of another
 * type, is a BAD_REQUEST naming the urn.
 */

/** DataHub's root query names, by the GraphQL type they return (entity.graphql's Query). */
const ROOT_QUERIES: Readonly<Record<string, string>> = {
  corpUser: 'CorpUser',
  corpGroup: 'CorpGroup',
  dataPlatform: 'DataPlatform',
  dashboard: 'Dashboard',
  notebook: 'Notebook',
  chart: 'Chart',
  dataFlow: 'DataFlow',
  dataJob: 'DataJob',
  tag: 'Tag',
  role: 'Role',
  structuredProperty: 'StructuredPropertyEntity',
  glossaryTerm: 'GlossaryTerm',
  glossaryNode: 'GlossaryNode',
  container: 'Container',
  domain: 'Domain',
  assertion: 'Assertion',
  incident: 'Incident',
  mlModel: 'MLModel',
  mlModelGroup: 'MLModelGroup',
  mlFeature: 'MLFeature',
  mlFeatureTable: 'MLFeatureTable',
  mlPrimaryKey: 'MLPrimaryKey',
  dataProduct: 'DataProduct',
  dataPlatformInstance: 'DataPlatformInstance',
  businessAttribute: 'BusinessAttribute',
  dataProcessInstance: 'DataProcessInstance',
  application: 'Application',
  executionRequest: 'ExecutionRequest',
  document: 'Document',
  view: 'DataHubView',
  erModelRelationship: 'ERModelRelationship',
  form: 'Form',
  test: 'Test',
  versionSet: 'VersionSet',
  metric: 'Metric',
  semanticModel: 'SemanticModel',
};

/** DataHub's most urns one entities(urns) call loads (a request's cost stays bounded). */
export const MAX_ENTITIES_URNS = 1000;

function parsedUrn(urn: string, field: string) {
  try {
    return parseUrn(urn);
  } catch (e) {
    throw badRequest(`${field}: ${urn} is not a valid urn: ${(e as Error).message}`);
  }
}

/** The root query of one type: the entity when stored, else null. */
const rootQuery =
  (typename: string, entity: string): Resolver =>
  async (_s, { urn }: { urn: string }, ctx: GraphqlContext) => {
    const parsed = parsedUrn(urn, 'urn');
    if (parsed.entityType.toLowerCase() !== entity.toLowerCase()) {
      throw badRequest(`urn: ${urn} is not a ${entity} urn (entity type ${parsed.entityType})`);
    }
    if ((await ctx.entities.load(urn, [])) === undefined) return null;
    return entityRef(ctx, urn);
  };

const typeDefs = (fields: readonly string[]) => /* GraphQL */ `
  extend type Query {
${fields.join('\n')}
    "The entities of the urns, in order; null for one Almanac has no type for (or, with checkForExistence, one not stored)."
    entities(urns: [String!]!, checkForExistence: Boolean): [Entity]
    "Whether the entity is stored (soft-deleted ones included)."
    entityExists(urn: String!): Boolean
  }
`;

/** The root queries of the types the given modules declare and that no module already serves. */
export function entityQueriesModule(modules: readonly GraphqlModule[]): GraphqlModule {
  const types = new Set<string>();
  const served = new Set<string>();
  for (const m of modules) {
    for (const def of parse(m.typeDefs).definitions) {
      if (def.kind === Kind.OBJECT_TYPE_DEFINITION) types.add(def.name.value);
      if ((def.kind === Kind.OBJECT_TYPE_EXTENSION || def.kind === Kind.OBJECT_TYPE_DEFINITION) && def.name.value === 'Query') {
        for (const f of def.fields ?? []) served.add(f.name.value);
      }
    }
  }
  const entityOfTypename = new Map(ENTITY_TYPE_ROWS.filter((r) => r.typename && r.entity).map((r) => [r.typename!, r.entity!]));
  const fields: string[] = [];
  const query: Record<string, Resolver> = {};
  for (const [name, typename] of Object.entries(ROOT_QUERIES)) {
    const entity = entityOfTypename.get(typename);
    if (!entity || !types.has(typename) || served.has(name)) continue;
    fields.push(`    "A ${typename} by urn, or null when it is not stored."\n    ${name}(urn: String!): ${typename}`);
    query[name] = rootQuery(typename, entity);
  }
  query.entities = async (_s, args: { urns: readonly string[]; checkForExistence?: boolean | null }, ctx) => {
    if (args.urns.length > MAX_ENTITIES_URNS) throw badRequest(`urns: at most ${MAX_ENTITIES_URNS} urns at once, got ${args.urns.length}`);
    for (const urn of args.urns) parsedUrn(urn, 'urns');
    return Promise.all(
      args.urns.map(async (urn) => {
        if (args.checkForExistence && (await ctx.entities.load(urn, [])) === undefined) return null;
        return entityRef(ctx, urn);
      }),
    );
  };
  query.entityExists = async (_s, { urn }: { urn: string }, ctx) => {
    parsedUrn(urn, 'urn');
    return (await ctx.entities.load(urn, [])) !== undefined;
  };
  return { typeDefs: typeDefs(fields), resolvers: { Query: query } };
}
