/** What GraphQL answers for webhook subscriptions and deliveries, as the CLI and the console read it. */
export interface WebhookSubscriptionWire {
  readonly id: string;
  readonly url: string;
  readonly categories: string[] | null;
  readonly entityTypes: string[] | null;
  readonly createdBy: string;
  readonly createdAt: number;
}

export interface WebhookDeliveryWire {
  /** X-Almanac-Delivery: `<subscription id>.<event id>`. */
  readonly id: string;
  readonly subscriptionId: string;
  readonly state: 'pending' | 'delivered' | 'failed';
  readonly attempts: number;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
  readonly deliveredAt: number | null;
  readonly nextAttemptAt: number;
  readonly entityUrn: string;
  readonly category: string;
}
