import { DATAHUB_REGISTRY } from '../../catalog/registry/index.ts';
import type { Json } from '../../storage/store.ts';
import { auditStamp, COMMON, existsField, fromAspect, refFromAspect, str } from './entity-fields.ts';
import { entityRef, type EntitySource } from './entity-refs.ts';
import { listPaging } from './entity-search-fields.ts';
import { ENTITY_TYPE_ROWS } from './entity-types.ts';
import type { GraphqlContext, GraphqlModule, Resolver } from './schema.ts';

/**
 * DataHub's Assertion as far as its definition goes (assertionInfo's type,
 * description, source), and the `assertions` field of every type an assertion
 * can assert on: the registry's Asserts targets. Run results are not here.
 */

const ASSERT_TARGETS = new Set(
  (DATAHUB_REGISTRY.aspects.assertionInfo?.relationships ?? [])
    .filter((r) => r.name === 'Asserts')
    .flatMap((r) => r.entityTypes.map((t) => t.toLowerCase())),
);
const TARGET_TYPENAMES = ENTITY_TYPE_ROWS.filter((r) => r.entity && r.typename && ASSERT_TARGETS.has(r.entity.toLowerCase())).map((r) => r.typename!);

const typeDefs = /* GraphQL */ `
  enum AssertionType {
    DATASET
    FRESHNESS
    VOLUME
    SQL
    FIELD
    DATA_SCHEMA
    CUSTOM
  }

  enum AssertionSourceType {
    NATIVE
    EXTERNAL
    INFERRED
  }

  type AssertionSource {
    type: AssertionSourceType!
    created: AuditStamp
  }

  type AssertionInfo {
    type: AssertionType!
    description: String
    externalUrl: String
    source: AssertionSource
    lastUpdated: AuditStamp
  }

  type Assertion implements Entity {
    urn: String!
    type: EntityType!
    "The platform of the assertion's dataPlatformInstance; urn:li:dataPlatform:unknown without one."
    platform: DataPlatform!
    info: AssertionInfo
    exists: Boolean
  }

  type EntityAssertionsResult {
    start: Int!
    count: Int!
    total: Int!
    assertions: [Assertion!]!
  }

  ${TARGET_TYPENAMES.map(
    (t) => `extend type ${t} {
    "Assertions on this entity (Asserts relationships), 200 a page by default."
    assertions(start: Int, count: Int, includeSoftDeleted: Boolean): EntityAssertionsResult
  }`,
  ).join('\n\n  ')}
`;

const assertionsField: Resolver = async (e: EntitySource, args: { start?: number | null; count?: number | null }, ctx: GraphqlContext) => {
  const { start, count } = listPaging(args, 200, '');
  const page = await ctx.app.relationships.relatedEntities({ urn: e.urn, types: ['Asserts'], direction: 'INCOMING', start, count });
  const assertions = (await Promise.all(page.entities.map((r) => entityRef(ctx, r.urn)))).filter((a) => a !== null);
  return { start, count: assertions.length, total: page.total, assertions };
};

export const assertionModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Assertion: {
      ...COMMON,
      platform: async (e: EntitySource, a, ctx, info) =>
        (await refFromAspect('dataPlatformInstance', (v) => v.platform)(e, a, ctx, info)) ?? entityRef(ctx, 'urn:li:dataPlatform:unknown'),
      info: fromAspect('assertionInfo', (v) => {
        const source = v.source as Json | undefined;
        return {
          type: str(v.type) ?? 'CUSTOM',
          description: str(v.description),
          externalUrl: str(v.externalUrl),
          source: source ? { type: str(source.type) ?? 'NATIVE', created: auditStamp(source.created) } : null,
          lastUpdated: auditStamp(v.lastUpdated),
        };
      }),
      exists: existsField,
    },
    ...Object.fromEntries(TARGET_TYPENAMES.map((t) => [t, { assertions: assertionsField }])),
  },
};
