import type { DeprecationChange, DeprecationVersion, DeprecationView, ResourceRef } from '../../catalog/deprecation.ts';
import { wantsField } from '../../catalog/resource-refs.ts';
import { curate, resourceList, type Check } from './curation.ts';
import { entityRef } from './entity-refs.ts';
import type { GraphqlModule } from './schema.ts';

const typeDefs = /* GraphQL */ `
  "Whether an entity is deprecated (DataHub's Deprecation aspect)."
  type Deprecation {
    deprecated: Boolean!
    "When the entity will be decommissioned, in epoch milliseconds."
    decommissionTime: Long
    note: String
    "The urn of who last set the deprecation."
    actor: String
    "The actor as an entity (null when Almanac has no GraphQL type for its kind)."
    actorEntity: Entity
    "The entity to use instead. (Almanac's history entries keep the urn as a string: replacement there.)"
    replacement: Entity
  }

  """
  One stored version of an entity's deprecation (Almanac addition: DataHub keeps
  aspect versions but does not expose them). Newest first.
  """
  type DeprecationHistoryEntry {
    "0 is the current version; among the others, higher is more recent."
    version: Long!
    deprecated: Boolean!
    decommissionTime: Long
    note: String
    "The actor recorded in the aspect: the caller of the mutation that wrote it."
    actor: String
    replacement: String
    "When this version was written, in epoch milliseconds."
    time: Long!
    "The authenticated principal that wrote this version (differs from actor only for raw aspect ingestion)."
    createdBy: String!
  }

  enum SubResourceType {
    DATASET_FIELD
  }

  input UpdateDeprecationInput {
    urn: String!
    "With subResource, deprecates that field of the dataset (DataHub accepts both and deprecates the whole entity)."
    subResourceType: SubResourceType
    subResource: String
    deprecated: Boolean!
    decommissionTime: Long
    note: String
    replacement: String
  }

  input ResourceRefInput {
    resourceUrn: String!
    subResourceType: SubResourceType
    subResource: String
  }

  input BatchUpdateDeprecationInput {
    deprecated: Boolean!
    decommissionTime: Long
    note: String
    "At most 1000 resources; all are validated before any is written, and all are written in one transaction."
    resources: [ResourceRefInput]!
    replacement: String
  }

  extend type Query {
    "The deprecation history of any entity (datasets, schema fields, ...), newest first (Almanac addition)."
    deprecationHistory(urn: String!, limit: Int = 100): [DeprecationHistoryEntry!]!
  }

  extend type Mutation {
    "Sets the deprecation of one existing entity; returns true."
    updateDeprecation(input: UpdateDeprecationInput!): Boolean
    "Sets the same deprecation on several entities or dataset fields, all or nothing; returns true."
    batchUpdateDeprecation(input: BatchUpdateDeprecationInput!): Boolean
  }
`;

type ChangeInput = DeprecationChange;

/** Only the change's own fields: the input objects also carry urn or resources. */
const changeOf = (input: ChangeInput): DeprecationChange => ({
  deprecated: input.deprecated,
  decommissionTime: input.decommissionTime,
  note: input.note,
  replacement: input.replacement,
});

const historyEntry = (v: DeprecationVersion) => ({ version: v.version, ...v.deprecation, time: v.createdOn, createdBy: v.createdBy });

export const deprecationsModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Query: {
      deprecationHistory: async (_s, args: { urn: string; limit: number }, ctx) =>
        (await ctx.deprecations.history(args.urn, args.limit)).map(historyEntry),
    },
    Dataset: {
      deprecationHistory: async (d: { urn: string }, args: { limit: number }, ctx) =>
        (await ctx.deprecations.history(d.urn, args.limit)).map(historyEntry),
    },
    Deprecation: {
      actorEntity: (d: DeprecationView, _a, ctx) => entityRef(ctx, d.actor),
      replacement: (d: DeprecationView, _a, ctx) => entityRef(ctx, d.replacement),
    },
    Mutation: {
      updateDeprecation: (_s, { input }: { input: ChangeInput & ResourceRef & { urn: string } }, ctx) =>
        curate(ctx, [['updateDeprecation', input.urn]], { n: 1, field: 'input' }, () => {
          // A field is deprecated as batchUpdateDeprecation does it, with the same checks.
          if (wantsField({ ...input, resourceUrn: input.urn }))
            return ctx.deprecations.batchUpdate([{ ...input, resourceUrn: input.urn }], changeOf(input), ctx.principal.actorUrn);
          return ctx.deprecations.update(input.urn, changeOf(input), ctx.principal.actorUrn);
        }),
      batchUpdateDeprecation: (_s, { input }: { input: ChangeInput & { resources: ReadonlyArray<ResourceRef | null> } }, ctx) =>
        curate(
          ctx,
          input.resources.flatMap((r): Check[] => (r === null ? [] : [['updateDeprecation', r.resourceUrn]])),
          { n: input.resources.length, field: 'input.resources' },
          // The list type is [ResourceRefInput]! as in DataHub, so an element may be null.
          () => ctx.deprecations.batchUpdate(resourceList(input.resources), changeOf(input), ctx.principal.actorUrn),
        ),
    },
  },
};
