import type { WebhookDeliveryRecord } from '../../storage/store.ts';
import type { SubscriptionInput } from '../../catalog/events/webhook-subscriptions.ts';
import type { GraphqlModule } from './schema.ts';

const typeDefs = /* GraphQL */ `
  "Where change events are POSTed, signed with the subscription's secret (Almanac addition)."
  type WebhookSubscription {
    id: String!
    url: String!
    "Only events of these Entity Change Event categories (TAG, GLOSSARY_TERM, OWNERSHIP, DOMAIN, DOCUMENTATION, DEPRECATION, TECHNICAL_SCHEMA, STRUCTURED_PROPERTY, LIFECYCLE, RUN; OWNER is taken as OWNERSHIP); null for all."
    categories: [String!]
    "Only events on these entity types; null for all."
    entityTypes: [String!]
    createdBy: String!
    createdAt: Long!
  }

  "A new subscription and its signing secret, shown this once: it is never returned again."
  type CreatedWebhookSubscription {
    subscription: WebhookSubscription!
    secret: String!
  }

  "One event's delivery to one subscription."
  type WebhookDelivery {
    "The X-Almanac-Delivery header: the same on every attempt."
    id: String!
    subscriptionId: String!
    eventId: Long!
    "pending, delivered or failed"
    state: String!
    attempts: Int!
    "The last attempt's HTTP status, if a response came."
    lastStatusCode: Int
    lastError: String
    deliveredAt: Long
    nextAttemptAt: Long!
    entityUrn: String!
    category: String!
  }

  type WebhookDeliveryPage {
    total: Int!
    deliveries: [WebhookDelivery!]!
  }

  input CreateWebhookSubscriptionInput {
    "An http or https URL."
    url: String!
    "16 to 256 characters; left out, one is generated and returned once."
    secret: String
    categories: [String!]
    entityTypes: [String!]
  }

  extend type Query {
    "Every webhook subscription (Almanac addition; needs MANAGE_WEBHOOKS_PRIVILEGE)."
    listWebhookSubscriptions: [WebhookSubscription!]!
    "The delivery log, newest event first."
    webhookDeliveries(subscriptionId: String, state: String, start: Int, count: Int): WebhookDeliveryPage!
  }

  extend type Mutation {
    createWebhookSubscription(input: CreateWebhookSubscriptionInput!): CreatedWebhookSubscription!
    "Deletes a subscription and its deliveries; false when there was none."
    deleteWebhookSubscription(id: String!): Boolean!
  }
`;

const deliveryView = (d: WebhookDeliveryRecord) => ({ ...d, id: `${d.subscriptionId}.${d.eventId}`, lastStatusCode: d.lastStatus });

/** Webhook subscriptions and their delivery log, for holders of MANAGE_WEBHOOKS_PRIVILEGE. */
export const webhooksModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Query: {
      listWebhookSubscriptions: async (_s, _a, ctx) => {
        await ctx.app.authorizer.require(ctx.principal, 'manageWebhooks');
        return ctx.app.webhooks.list();
      },
      webhookDeliveries: async (
        _s,
        args: { subscriptionId?: string | null; state?: string | null; start?: number | null; count?: number | null },
        ctx,
      ) => {
        await ctx.app.authorizer.require(ctx.principal, 'manageWebhooks');
        const page = await ctx.app.webhooks.deliveries(args);
        return { total: page.total, deliveries: page.deliveries.map(deliveryView) };
      },
    },
    Mutation: {
      createWebhookSubscription: async (_s, { input }: { input: SubscriptionInput }, ctx) => {
        await ctx.app.authorizer.require(ctx.principal, 'manageWebhooks');
        return ctx.app.webhooks.create(input, ctx.principal.actorUrn);
      },
      deleteWebhookSubscription: async (_s, { id }: { id: string }, ctx) => {
        await ctx.app.authorizer.require(ctx.principal, 'manageWebhooks');
        return ctx.app.webhooks.delete(id);
      },
    },
  },
};
