import { badRequest } from '../../catalog/errors.ts';
import { ANSWERED_CATEGORIES, parseCategories } from '../../catalog/timeline/categories.ts';
import type { ChangeCategory, ChangeTransaction } from '../../catalog/timeline/change-event.ts';
import type { GraphqlModule } from './schema.ts';

/** DataHub's timeline.graphql, the part its UI's change history reads. */
const typeDefs = /* GraphQL */ `
  enum ChangeOperationType {
    ADD
    MODIFY
    REMOVE
  }

  enum ChangeCategoryType {
    DOCUMENTATION
    GLOSSARY_TERM
    OWNERSHIP
    TECHNICAL_SCHEMA
    TAG
    PARENT
    RELATED_ENTITIES
    DOMAIN
    STRUCTURED_PROPERTY
    APPLICATION
    ASSET_MEMBERSHIP
  }

  input GetTimelineInput {
    urn: String!
    "The categories to read; all that this server answers and GraphQL can name when left out."
    changeCategories: [ChangeCategoryType!]
  }

  type GetTimelineResult {
    changeTransactions: [ChangeTransaction!]!
  }

  type ChangeTransaction {
    timestampMillis: Long!
    lastSemanticVersion: String!
    versionStamp: String!
    changeType: ChangeOperationType!
    actor: String
    changes: [ChangeEvent!]
  }

  type ChangeEvent {
    urn: String!
    category: ChangeCategoryType
    operation: ChangeOperationType
    modifier: String
    parameters: [TimelineParameterEntry!]
    auditStamp: AuditStamp
    description: String
  }

  type TimelineParameterEntry {
    key: String
    value: String
  }

  extend type Query {
    "An entity's change history (DataHub's getTimeline): its most recent 100 change transactions, oldest first."
    getTimeline(input: GetTimelineInput!): GetTimelineResult
  }
`;

/** DataHub's TimelineService.DEFAULT_MAX_CHANGE_TRANSACTIONS: the newest transactions kept. */
const MAX_TRANSACTIONS = 100;

/** The categories DataHub's GraphQL enum can name (DEPRECATION, LIFECYCLE and a few more it cannot). */
const GRAPHQL_CATEGORIES: ReadonlySet<string> = new Set([
  'DOCUMENTATION',
  'GLOSSARY_TERM',
  'OWNERSHIP',
  'TECHNICAL_SCHEMA',
  'TAG',
  'PARENT',
  'RELATED_ENTITIES',
  'DOMAIN',
  'STRUCTURED_PROPERTY',
  'APPLICATION',
  'ASSET_MEMBERSHIP',
]);

/** A parameter's value as DataHub's mapper writes it (Java's toString): strings as they are, the rest as JSON. */
const parameterValue = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** DataHub's ChangeTransactionMapper and ChangeEventMapper. */
function toGraphql(t: ChangeTransaction) {
  return {
    timestampMillis: t.timestamp,
    lastSemanticVersion: t.semVer,
    // DataHub's mapper fills these two with constants.
    versionStamp: 'none',
    changeType: 'MODIFY',
    actor: t.actor,
    changes: t.changeEvents
      .filter((e) => GRAPHQL_CATEGORIES.has(e.category))
      .map((e) => ({
        urn: e.entityUrn,
        category: e.category,
        operation: e.operation,
        modifier: e.modifier ?? null,
        description: e.description,
        parameters: e.parameters ? Object.entries(e.parameters).map(([key, value]) => ({ key, value: parameterValue(value) })) : null,
        auditStamp: { time: t.timestamp, actor: t.actor },
      })),
  };
}

export const timelineModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Query: {
      getTimeline: async (_s, { input }: { input: { urn: string; changeCategories?: string[] | null } }, ctx) => {
        if (input.urn.trim() === '') throw badRequest("Field 'input.urn' must be a urn");
        const asked = input.changeCategories ?? [];
        const categories: ChangeCategory[] = asked.length > 0 ? parseCategories(asked) : ANSWERED_CATEGORIES.filter((c) => GRAPHQL_CATEGORIES.has(c));
        // The whole history (DataHub reads from the epoch), then its newest transactions.
        const transactions = await ctx.app.timeline.timeline({ urn: input.urn, categories, startTime: 0, endTime: 0, raw: false });
        return {
          changeTransactions: transactions
            .slice(-MAX_TRANSACTIONS)
            .map(toGraphql)
            .filter((t) => t.changes.length > 0),
        };
      },
    },
  },
};
