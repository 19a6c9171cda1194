import type { LineageEdge } from '../../catalog/curation/lineage-edits.ts';
import { badRequest } from '../../catalog/errors.ts';
import { curate, type Check } from './curation.ts';
import type { GraphqlModule } from './schema.ts';

/** DataHub's updateLineage (lineage.graphql). */
const typeDefs = /* GraphQL */ `
  input LineageEdge {
    "The entity that reads from upstreamUrn."
    downstreamUrn: String!
    upstreamUrn: String!
  }

  input UpdateLineageInput {
    edgesToAdd: [LineageEdge]!
    "Removals take precedence: an edge in both lists is removed."
    edgesToRemove: [LineageEdge]!
  }

  extend type Mutation {
    "Adds and removes lineage edges (EDIT_ENTITY or EDIT_LINEAGE on both ends of each); true."
    updateLineage(input: UpdateLineageInput!): Boolean
  }
`;

const edges = (list: ReadonlyArray<LineageEdge | null>, field: string): LineageEdge[] =>
  list.map((e, i) => {
    if (e === null) throw badRequest(`${field}[${i}] must not be null`);
    return e;
  });

export const lineageMutationsModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Mutation: {
      updateLineage: (
        _s,
        { input }: { input: { edgesToAdd: ReadonlyArray<LineageEdge | null>; edgesToRemove: ReadonlyArray<LineageEdge | null> } },
        ctx,
      ) => {
        const toAdd = edges(input.edgesToAdd, 'edgesToAdd');
        const toRemove = edges(input.edgesToRemove, 'edgesToRemove');
        // DataHub checks both ends of every edge, the upstream first.
        const checks = [...toAdd, ...toRemove].flatMap((e): Check[] => [
          ['editLineage', e.upstreamUrn],
          ['editLineage', e.downstreamUrn],
        ]);
        return curate(ctx, checks, { n: toAdd.length + toRemove.length, field: 'input' }, () =>
          ctx.app.lineageEdits.update(toAdd, toRemove, ctx.principal.actorUrn),
        );
      },
    },
  },
};
