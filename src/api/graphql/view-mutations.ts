import type { ViewCriterion, ViewInput } from '../../catalog/curation/views.ts';
import { badRequest, forbidden } from '../../catalog/errors.ts';
import { UNAUTHORIZED_MESSAGE } from '../../auth/operations.ts';
import { guarded } from './curation.ts';
import { entityRef } from './entity-refs.ts';
import { entityOfType } from './entity-types.ts';
import type { GraphqlContext, GraphqlModule } from './schema.ts';

/** DataHub's view mutations and lists (entity.graphql); the DataHubView type is the read side's (view.ts). */
const typeDefs = /* GraphQL */ `
  input DataHubViewFilterInput {
    operator: LogicalOperator!
    "Combined by the operator; none applies no filter."
    filters: [FacetFilterInput!]!
  }

  input DataHubViewDefinitionInput {
    "The entity types the view applies to; none means all."
    entityTypes: [EntityType!]!
    filter: DataHubViewFilterInput!
  }

  input CreateViewInput {
    viewType: DataHubViewType!
    name: String!
    description: String
    definition: DataHubViewDefinitionInput!
  }

  input UpdateViewInput {
    name: String
    description: String
    definition: DataHubViewDefinitionInput
  }

  input ListMyViewsInput {
    start: Int
    count: Int
    query: String
    viewType: DataHubViewType
  }

  input ListGlobalViewsInput {
    start: Int
    count: Int
    query: String
  }

  type ListViewsResult {
    start: Int!
    count: Int!
    total: Int!
    views: [DataHubView!]!
  }

  extend type Query {
    "The caller's own views, newest first."
    listMyViews(input: ListMyViewsInput!): ListViewsResult
    "Every global view, newest first."
    listGlobalViews(input: ListGlobalViewsInput!): ListViewsResult
  }

  extend type Mutation {
    "Creates a personal view, or a global one (MANAGE_GLOBAL_VIEWS)."
    createView(input: CreateViewInput!): DataHubView
    "Changes a view: one's own, or a global one (MANAGE_GLOBAL_VIEWS)."
    updateView(urn: String!, input: UpdateViewInput!): DataHubView
    deleteView(urn: String!): Boolean
  }
`;

type DefinitionInput = { entityTypes: string[]; filter: { operator: 'AND' | 'OR'; filters: ViewCriterion[] } };
type Input = Omit<ViewInput, 'definition'> & { definition?: DefinitionInput | null };

/** The GraphQL EntityType values as registry names. */
const definitionOf = (d: DefinitionInput | null | undefined) =>
  d == null
    ? d
    : {
        ...d,
        entityTypes: d.entityTypes.map((t) => {
          const entity = entityOfType(t);
          if (entity === undefined) throw badRequest(`input.definition.entityTypes: ${t} names no entity type`);
          return entity;
        }),
      };

/** ViewUtils.canUpdateView: a global view by whoever manages global views, any view by its creator. */
async function requireMayModify(ctx: GraphqlContext, urn: string): Promise<void> {
  const { type, creator } = await ctx.app.views.ownership(urn);
  if (type === 'GLOBAL' && (await ctx.app.authorizer.allows(ctx.principal, 'manageGlobalViews'))) return;
  if (creator !== ctx.principal.actorUrn) throw forbidden(UNAUTHORIZED_MESSAGE);
}

const page = async (
  ctx: GraphqlContext,
  filter: { creator?: string; type?: string | null },
  input: { start?: number | null; count?: number | null; query?: string | null },
) => {
  const found = await ctx.app.views.list(filter, { start: input.start ?? 0, count: input.count ?? 20, query: input.query ?? '' });
  return {
    start: found.start,
    count: found.count,
    total: found.total,
    views: (await Promise.all(found.urns.map((u) => entityRef(ctx, u)))).filter((v) => v !== null),
  };
};

export const viewMutationsModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Query: {
      listMyViews: (_s, { input }: { input: { start?: number; count?: number; query?: string; viewType?: string | null } }, ctx) =>
        page(ctx, { creator: ctx.principal.actorUrn, type: input.viewType ?? null }, input),
      listGlobalViews: (_s, { input }: { input: { start?: number; count?: number; query?: string } }, ctx) => page(ctx, { type: 'GLOBAL' }, input),
    },
    Mutation: {
      createView: async (_s, { input }: { input: Input & { viewType: 'PERSONAL' | 'GLOBAL'; name: string; definition: DefinitionInput } }, ctx) =>
        entityRef(
          ctx,
          await guarded(ctx, input.viewType === 'GLOBAL' ? [['manageGlobalViews']] : [], { n: 2, field: 'input' }, () =>
            ctx.app.views.create({ ...input, definition: definitionOf(input.definition)! }, ctx.principal.actorUrn),
          ),
        ),
      updateView: async (_s, { urn, input }: { urn: string; input: Input }, ctx) => {
        await requireMayModify(ctx, urn);
        await guarded(ctx, [], { n: 1, field: 'input' }, () =>
          ctx.app.views.update(urn, { ...input, definition: definitionOf(input.definition) }, ctx.principal.actorUrn),
        );
        return entityRef(ctx, urn);
      },
      deleteView: async (_s, { urn }: { urn: string }, ctx) => {
        await requireMayModify(ctx, urn);
        await ctx.app.catalog.delete({ urn });
        return true;
      },
    },
  },
};
