import { CatalogError } from '../../catalog/errors.ts';
import { policyView, previewView, runView } from '../almanac/retention-views.ts';
import type { GraphqlModule } from './schema.ts';

const typeDefs = /* GraphQL */ `
  "A retention policy in DataHub's shape (entity, aspect, config.retention), with who set it last (Almanac addition)."
  type RetentionPolicy {
    entity: String!
    aspect: String!
    "Keep at most this many versions of a versioned aspect, the latest among them."
    maxVersions: Int
    "Keep what is younger than this: versions, or timeseries rows."
    maxAgeInSeconds: Int
    "file (ALMANAC_RETENTION_FILE) or api."
    source: String!
    updatedBy: String!
    updatedAt: Long!
  }

  "What one policy would delete now from one timeseries index or one pair of versioned aspects."
  type RetentionPreview {
    policyEntity: String!
    policyAspect: String!
    "timeseries or versioned"
    kind: String!
    entityType: String!
    aspect: String!
    "Rows or earlier versions that would go."
    delete: Long!
    total: Long!
    sharePercent: Float!
    bytes: Long!
    bytesEstimated: Boolean!
    cutoffMillis: Long
    oldestKeptMillis: Long
    newestKeptMillis: Long
    needsConfirmation: Boolean!
  }

  type RetentionRun {
    id: String!
    trigger: String!
    state: String!
    confirm: Boolean!
    startedAt: Long!
    endedAt: Long
    versionsDeleted: Long!
    "What the run did with each index and pair, as JSON (see GET /api/retention/runs)."
    outcomesJson: String!
  }

  input RetentionPolicyInput {
    "An entity type, or * for all."
    entity: String!
    "An aspect, or * for all."
    aspect: String!
    maxVersions: Int
    maxAgeInSeconds: Int
  }

  input RunRetentionInput {
    "Only the policy of this entity type and aspect (both or neither)."
    entity: String
    aspect: String
    "Also run indices that would lose more than the allowed share of their rows."
    confirm: Boolean
  }

  extend type Query {
    "Every retention policy (Almanac addition; needs a retention privilege)."
    listRetentionPolicies: [RetentionPolicy!]!
    "What each policy would delete now (Almanac addition)."
    previewRetention: [RetentionPreview!]!
  }

  extend type Mutation {
    "Creates or replaces the policy of (entity, aspect) (Almanac addition)."
    setRetentionPolicy(input: RetentionPolicyInput!): RetentionPolicy!
    "Deletes a policy; false when there was none."
    deleteRetentionPolicy(entity: String!, aspect: String!): Boolean!
    "Starts a retention run now."
    runRetention(input: RunRetentionInput): RetentionRun!
  }
`;

interface PolicyInput {
  entity: string;
  aspect: string;
  maxVersions?: number | null;
  maxAgeInSeconds?: number | null;
}

const flat = (p: ReturnType<typeof policyView>) => ({
  entity: p.entity,
  aspect: p.aspect,
  maxVersions: p.config.retention.version?.maxVersions ?? null,
  maxAgeInSeconds: p.config.retention.time?.maxAgeInSeconds ?? null,
  source: p.source,
  updatedBy: p.updatedBy,
  updatedAt: p.updatedAt,
});

/** Retention over GraphQL: the same service and checks as /api/retention. */
export const retentionModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Query: {
      listRetentionPolicies: async (_s, _a, ctx) => {
        await ctx.app.authorizer.require(ctx.principal, 'viewRetention');
        return (await ctx.app.retention.list()).map((p) => flat(policyView(p)));
      },
      previewRetention: async (_s, _a, ctx) => {
        await ctx.app.authorizer.require(ctx.principal, 'viewRetention');
        return (await ctx.app.retention.preview())
          .map(previewView)
          .map(({ policy, ...rest }) => ({ ...rest, policyEntity: policy.entity, policyAspect: policy.aspect }));
      },
    },
    Mutation: {
      setRetentionPolicy: async (_s, { input }: { input: PolicyInput }, ctx) => {
        await ctx.app.authorizer.require(ctx.principal, 'manageRetention');
        const retention = {
          ...(input.maxVersions != null ? { version: { maxVersions: input.maxVersions } } : {}),
          ...(input.maxAgeInSeconds != null ? { time: { maxAgeInSeconds: input.maxAgeInSeconds } } : {}),
        };
        const record = await ctx.app.retention.set({ entity: input.entity, aspect: input.aspect, config: { retention } }, ctx.principal.actorUrn);
        return flat(policyView(record));
      },
      deleteRetentionPolicy: async (_s, { entity, aspect }: { entity: string; aspect: string }, ctx) => {
        await ctx.app.authorizer.require(ctx.principal, 'manageRetention');
        try {
          await ctx.app.retention.remove(entity, aspect, ctx.principal.actorUrn);
          return true;
        } catch (e) {
          if (e instanceof CatalogError && e.code === 'NOT_FOUND') return false;
          throw e;
        }
      },
      runRetention: async (_s, { input }: { input?: { entity?: string | null; aspect?: string | null; confirm?: boolean | null } | null }, ctx) => {
        await ctx.app.authorizer.require(ctx.principal, 'manageRetention');
        const policy = await ctx.app.retention.runScope(input?.entity, input?.aspect);
        const run = await ctx.app.retention.run({ trigger: 'manual', policy, confirm: input?.confirm === true }, ctx.principal.actorUrn);
        const view = runView(run);
        return { ...view, outcomesJson: JSON.stringify(view.outcomes) };
      },
    },
  },
};
