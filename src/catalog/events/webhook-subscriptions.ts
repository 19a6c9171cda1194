import crypto from 'node:crypto';
import { badRequest } from '../errors.ts';
import { EMITTED_CATEGORIES, OWNER_ALIAS } from './entity-changes.ts';
import { findEntitySpec } from '../registry/index.ts';
import type { Parts, WebhookDeliveryRecord, WebhookDeliveryState, WebhookSubscriptionRecord } from '../../storage/store.ts';

export const MAX_SUBSCRIPTIONS = 100;
export const MAX_DELIVERY_PAGE = 1000;
const MIN_SECRET = 16;
const MAX_SECRET = 256;
const STATES: readonly WebhookDeliveryState[] = ['pending', 'delivered', 'failed'];

/** A subscription as callers see it: its secret never leaves the server after creation. */
export interface SubscriptionView {
  readonly id: string;
  readonly url: string;
  readonly categories: readonly string[] | null;
  readonly entityTypes: readonly string[] | null;
  readonly createdBy: string;
  readonly createdAt: number;
}

export interface SubscriptionInput {
  readonly url?: unknown;
  readonly secret?: unknown;
  readonly categories?: unknown;
  readonly entityTypes?: unknown;
}

const view = ({ sealedSecret: _sealed, ...rest }: WebhookSubscriptionRecord): SubscriptionView => rest;

/** A list filter: absent or null for all, else a non-empty list of allowed values; 400 naming the field otherwise. */
function filterList(field: string, raw: unknown, allowed: (v: string) => boolean, hint: string): string[] | null {
  if (raw === undefined || raw === null) return null;
  if (!Array.isArray(raw) || raw.length === 0 || raw.some((v) => typeof v !== 'string'))
    throw badRequest(`${field}: a non-empty list of strings, or left out for all`);
  const bad = (raw as string[]).find((v) => !allowed(v));
  if (bad !== undefined) throw badRequest(`${field}: unknown value ${bad} (${hint})`);
  return [...new Set(raw as string[])];
}

/** The categories filter: DataHub's Entity Change Event categories, `OWNER` (its docs' name) kept as OWNERSHIP. */
function categoryFilter(raw: unknown): string[] | null {
  const named = filterList(
    'categories',
    raw,
    (c) => EMITTED_CATEGORIES.includes(c) || c === OWNER_ALIAS.name,
    `one of ${EMITTED_CATEGORIES.join(', ')}`,
  );
  return named && [...new Set(named.map((c) => (c === OWNER_ALIAS.name ? OWNER_ALIAS.category : c)))];
}

/** Webhook subscriptions and their delivery log; the caller checks the privilege (MANAGE_WEBHOOKS_PRIVILEGE). */
export class WebhookSubscriptions {
  constructor(
    private readonly ports: Pick<Parts, 'changeEvents'>,
    /** Seals a signing secret for storage (tasks/webhooks/webhook-secrets.ts, which the deliverer opens it with). */
    private readonly secrets: { seal(secret: string): string },
    /** The URL rules (tasks/webhooks/webhook-target.ts, which the deliverer's lookups follow too): the URL, or a 400. */
    private readonly validateUrl: (raw: unknown) => string,
  ) {}

  /** Creates a subscription; the secret (the one given, or a new random one) is returned this once only. */
  async create(input: SubscriptionInput, actor: string, now = Date.now()): Promise<{ subscription: SubscriptionView; secret: string }> {
    const url = this.validateUrl(input.url);
    let secret: string;
    if (input.secret === undefined || input.secret === null) secret = crypto.randomBytes(32).toString('base64url');
    else if (typeof input.secret !== 'string' || input.secret.length < MIN_SECRET || input.secret.length > MAX_SECRET)
      throw badRequest(`secret: a string of ${MIN_SECRET} to ${MAX_SECRET} characters, or left out for a generated one`);
    else secret = input.secret;
    const categories = categoryFilter(input.categories);
    const entityTypes = filterList('entityTypes', input.entityTypes, (t) => findEntitySpec(t) !== undefined, 'an entity type of the registry');
    if ((await this.ports.changeEvents.listWebhookSubscriptions()).length >= MAX_SUBSCRIPTIONS)
      throw badRequest(`At most ${MAX_SUBSCRIPTIONS} webhook subscriptions; delete one first`);
    const record: WebhookSubscriptionRecord = {
      id: crypto.randomUUID(),
      url,
      sealedSecret: this.secrets.seal(secret),
      categories,
      entityTypes,
      createdBy: actor,
      createdAt: now,
    };
    await this.ports.changeEvents.createWebhookSubscription(record);
    return { subscription: view(record), secret };
  }

  async list(): Promise<SubscriptionView[]> {
    return (await this.ports.changeEvents.listWebhookSubscriptions()).map(view);
  }

  delete(id: string): Promise<boolean> {
    return this.ports.changeEvents.deleteWebhookSubscription(id);
  }

  async deliveries(filter: { subscriptionId?: string | null; state?: string | null; start?: number | null; count?: number | null }) {
    const start = filter.start ?? 0;
    const count = filter.count ?? 100;
    if (!Number.isInteger(start) || start < 0) throw badRequest(`start: a non-negative integer, got ${start}`);
    if (!Number.isInteger(count) || count < 1 || count > MAX_DELIVERY_PAGE)
      throw badRequest(`count: an integer from 1 to ${MAX_DELIVERY_PAGE}, got ${count}`);
    const state = filter.state ?? undefined;
    if (state !== undefined && !(STATES as readonly string[]).includes(state)) throw badRequest(`state: one of ${STATES.join(', ')}, got ${state}`);
    const page = await this.ports.changeEvents.listWebhookDeliveries({
      start,
      count,
      ...(filter.subscriptionId ? { subscriptionId: filter.subscriptionId } : {}),
      ...(state ? { state: state as WebhookDeliveryState } : {}),
    });
    return page as { total: number; deliveries: WebhookDeliveryRecord[] };
  }
}
