import { buildSchema, isObjectType, isScalarType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import type { Principal } from '../../auth/principal.ts';
import type { Deprecations } from '../../catalog/deprecation.ts';
import type { AppContext } from '../context.ts';
import type { WriteBudget } from '../write-budget.ts';
import type { EntityLoader } from './entity-loader.ts';
import { ENTITY_TYPE_ENUM_SDL } from './entity-types.ts';
import { longScalar } from './long.ts';

/** What every resolver receives; built once per request. */
export interface GraphqlContext {
  readonly app: AppContext;
  readonly principal: Principal;
  readonly deprecations: Deprecations;
  readonly entities: EntityLoader;
  /** The request's cap on aspect versions written, shared by its aliased mutations. */
  readonly writes: WriteBudget;
}

// Sources and arguments are shaped by the SDL, which graphql-js has already checked.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Resolver = GraphQLFieldResolver<any, GraphqlContext, any>;
export type Resolvers = Readonly<Record<string, Readonly<Record<string, Resolver>>>>;

/**
 * One feature's slice of the API: its SDL (using `extend type Query` /
 * `extend type Mutation`) and the resolvers of the fields that need one.
 * Fields without a resolver read the property of the same name.
 */
export interface GraphqlModule {
  readonly typeDefs: string;
  readonly resolvers: Resolvers;
}

/** The roots and the types every module may use. Names and types are DataHub's (entity.graphql). */
const BASE_TYPE_DEFS = /* GraphQL */ `
  """
  A 64-bit integer (epoch milliseconds, counts). Almanac accepts numbers and numeric
  strings, and refuses values beyond ±(2^53-1), which JSON clients cannot hold exactly.
  """
  scalar Long

  "DataHub's entity types; the ones Almanac returns have an object type implementing Entity."
  ${ENTITY_TYPE_ENUM_SDL}

  "Any entity (DataHub's interface; Almanac omits its relationships field)."
  interface Entity {
    urn: String!
    type: EntityType!
  }

  type Query {
    "The authenticated caller."
    me: AuthenticatedUser
  }

  type Mutation

  type AuthenticatedUser {
    corpUser: CorpUser!
    "The DataHub privileges the caller holds through its role (Almanac addition)."
    privileges: [String!]!
  }

`;

const baseResolvers: Resolvers = {
  Query: {
    me: (_s, _a, ctx) => {
      const urn = ctx.principal.actorUrn;
      return { corpUser: { __typename: 'CorpUser', urn, entity: 'corpuser', parts: [urn.slice('urn:li:corpuser:'.length)] } };
    },
  },
  AuthenticatedUser: {
    privileges: (_s, _a, ctx) => ctx.app.authorizer.privileges(ctx.principal),
  },
};

/** Builds the executable schema; an unknown type or field in a resolver map fails at start, not per request. */
export function buildGraphqlSchema(modules: readonly GraphqlModule[]): GraphQLSchema {
  const schema = buildSchema([BASE_TYPE_DEFS, ...modules.map((m) => m.typeDefs)].join('\n'));
  const long = schema.getType('Long');
  if (!isScalarType(long)) throw new Error('Long scalar missing');
  Object.assign(long, longScalar);
  for (const resolvers of [baseResolvers, ...modules.map((m) => m.resolvers)]) {
    for (const [typeName, fields] of Object.entries(resolvers)) {
      const type = schema.getType(typeName);
      if (!isObjectType(type)) throw new Error(`GraphQL resolvers name ${typeName}, which is not an object type`);
      const defined = type.getFields();
      for (const [fieldName, resolve] of Object.entries(fields)) {
        const field = defined[fieldName];
        if (!field) throw new Error(`GraphQL resolvers name ${typeName}.${fieldName}, which the schema does not define`);
        field.resolve = resolve;
      }
    }
  }
  return schema;
}
