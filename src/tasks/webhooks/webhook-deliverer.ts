import type { Logger } from 'pino';
import { entityChangeEventText } from '../../catalog/events/change-log.ts';
import type { ClaimedDelivery, DeliveryOutcome, Parts } from '../../storage/store.ts';
import { MAX_RESPONSE_BYTES, postWebhook, WebhookAttemptError } from './post-webhook.ts';
import type { WebhookSecrets } from './webhook-secrets.ts';
import { DELIVERY_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, signDelivery, TIMESTAMP_HEADER } from './webhook-signature.ts';

export interface DelivererOptions {
  /** Who claims (the task runner's node id): deliveries are leased to one claimant at a time. */
  readonly claimant: string;
  readonly pollMillis?: number;
  /** Deliveries claimed at most at once. */
  readonly batch?: number;
  /** How long a claim is held: an attempt's deadline plus twice FINISH_MARGIN_MILLIS at least, so only a dead process loses one. */
  readonly leaseMillis?: number;
  /** The whole of one attempt: DNS, connect, TLS, request, response headers and body. */
  readonly attemptDeadlineMillis?: number;
  /** Attempts in flight in this process, over all subscriptions. */
  readonly maxInFlight?: number;
  /** Attempts in flight to one subscription, so a slow receiver holds few of this process's. */
  readonly maxInFlightPerSubscription?: number;
  /** Attempts in all before a delivery is marked failed. */
  readonly maxAttempts?: number;
  /** The wait after the first failed attempt; it doubles after each. */
  readonly firstRetryMillis?: number;
}

export const MAX_ATTEMPTS = 8;
/** Time a lease leaves after an attempt's deadline for recording its outcome; the lease has another for waiting its turn. */
export const FINISH_MARGIN_MILLIS = 5_000;
const MAX_RETRY_MILLIS = 10 * 60_000;
const MAX_ERROR_LENGTH = 500;

interface Held {
  readonly delivery: ClaimedDelivery;
  readonly leaseUntil: number;
}

/**
 * Delivers change events to webhook subscriptions: claims due deliveries, POSTs each event (EntityChangeEvent_v1
 * JSON) signed with the subscription's secret, and records the outcome; a failure is retried with exponential
 * backoff until `maxAttempts`. Every process sharing the database may run one: claims are leased, so each delivery
 * goes out from one process at a time, and a process that dies mid-attempt leaves it to another once the lease ends.
 *
 * Attempts run on their own, never as a round: the deliverer claims again while they run, up to `maxInFlight`, and a
 * subscription has at most `maxInFlightPerSubscription` of them; its other claimed deliveries wait in its own queue,
 * so a slow receiver delays only itself. Each attempt ends by its deadline, so others wait for a slot at most that
 * long, and only when slow receivers hold every slot (maxInFlight / maxInFlightPerSubscription of them at once).
 */
export class WebhookDeliverer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;
  private readonly o: Required<DelivererOptions>;
  private readonly attempts = new Set<Promise<void>>();
  private readonly active = new Map<string, number>();
  private readonly waiting = new Map<string, Held[]>();

  constructor(
    private readonly ports: Pick<Parts, 'changeEvents'>,
    private readonly secrets: WebhookSecrets,
    private readonly log: Logger,
    options: DelivererOptions,
  ) {
    this.o = {
      pollMillis: 500,
      batch: 20,
      leaseMillis: 60_000,
      attemptDeadlineMillis: 10_000,
      maxInFlight: 20,
      maxInFlightPerSubscription: 4,
      maxAttempts: MAX_ATTEMPTS,
      firstRetryMillis: 1_000,
      ...options,
    };
    if (this.o.leaseMillis < this.o.attemptDeadlineMillis + 2 * FINISH_MARGIN_MILLIS)
      throw new Error(`webhook lease of ${this.o.leaseMillis} ms does not outlast an attempt of ${this.o.attemptDeadlineMillis} ms and its margins`);
  }

  start(): void {
    this.stopped = false;
    this.schedule(this.o.pollMillis);
  }

  private schedule(millis: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      const round = this.tick();
      this.running = round;
      round
        .catch((err) => {
          this.log.warn({ err }, 'webhook delivery claim failed');
          return false;
        })
        .then((skipping) => this.schedule(skipping ? 0 : this.o.pollMillis));
    }, millis);
    this.timer.unref();
  }

  private get inFlight(): number {
    return this.attempts.size;
  }

  /**
   * Claims due deliveries, as many as there is room for in flight, queues each behind its subscription's, and starts
   * those their subscriptions have room for. True when it claimed all it asked for and set some aside: the claims
   * are then repeated at once, to reach past a backlog of slow subscriptions to the others' deliveries.
   */
  async tick(): Promise<boolean> {
    const room = Math.min(this.o.batch, this.o.maxInFlight - this.inFlight);
    if (room <= 0) return false;
    const now = Date.now();
    const claimed = await this.ports.changeEvents.claimWebhookDeliveries(this.o.claimant, now, now + this.o.leaseMillis, room);
    let setAside = 0;
    for (const delivery of claimed) {
      const queue = this.waiting.get(delivery.subscription.id) ?? [];
      this.waiting.set(delivery.subscription.id, queue);
      // A batch already waiting means the subscription is not keeping up: the delivery stays leased, untouched, and
      // is claimed again when the lease ends; meanwhile later claims pass it.
      if (queue.length < this.o.batch) queue.push({ delivery, leaseUntil: now + this.o.leaseMillis });
      else setAside += 1;
    }
    this.pump();
    return claimed.length === room && setAside > 0;
  }

  /** Starts waiting deliveries while this process and their subscriptions have room. */
  private pump(): void {
    for (const [subscription, queue] of this.waiting) {
      while (queue.length > 0 && this.inFlight < this.o.maxInFlight && (this.active.get(subscription) ?? 0) < this.o.maxInFlightPerSubscription) {
        const held = queue.shift()!;
        // Too little lease left to finish in: let it run out, and the delivery be claimed again.
        if (held.leaseUntil - Date.now() < this.o.attemptDeadlineMillis + FINISH_MARGIN_MILLIS) continue;
        this.begin(held.delivery);
      }
      if (queue.length === 0) this.waiting.delete(subscription);
    }
  }

  private begin(c: ClaimedDelivery): void {
    const id = c.subscription.id;
    this.active.set(id, (this.active.get(id) ?? 0) + 1);
    const attempt: Promise<void> = this.deliver(c)
      .catch((err) => this.log.warn({ err, subscription: id, event: c.event.id }, 'webhook delivery outcome not recorded'))
      .finally(() => {
        this.attempts.delete(attempt);
        const left = (this.active.get(id) ?? 1) - 1;
        if (left === 0) this.active.delete(id);
        else this.active.set(id, left);
        if (!this.stopped) this.pump();
      });
    this.attempts.add(attempt);
  }

  private async deliver(c: ClaimedDelivery): Promise<void> {
    const body = entityChangeEventText(c.event.value);
    const deliveryId = `${c.subscription.id}.${c.event.id}`;
    let status: number | null = null;
    let error: string | null = null;
    try {
      const timestamp = Date.now();
      const signature = signDelivery(this.secrets.unseal(c.subscription.sealedSecret), timestamp, body);
      const headers = {
        'Content-Type': 'application/json',
        'User-Agent': 'Almanac-Webhooks/1',
        [EVENT_TYPE_HEADER]: 'EntityChangeEvent_v1',
        [DELIVERY_HEADER]: deliveryId,
        [TIMESTAMP_HEADER]: String(timestamp),
        [SIGNATURE_HEADER]: signature,
      };
      status = await postWebhook(c.subscription.url, body, headers, {
        deadlineMillis: this.o.attemptDeadlineMillis,
        maxResponseBytes: MAX_RESPONSE_BYTES,
      });
      if (status < 200 || status > 299) error = `HTTP ${status}`;
    } catch (e) {
      if (e instanceof WebhookAttemptError) status = e.status;
      error = ((e as Error).message || String(e)).slice(0, MAX_ERROR_LENGTH);
    }
    const at = Date.now();
    const attempts = c.attempts + 1;
    const outcome: DeliveryOutcome =
      error === null
        ? { state: 'delivered', status, error: null, at, nextAttemptAt: at }
        : attempts >= this.o.maxAttempts
          ? { state: 'failed', status, error, at, nextAttemptAt: at }
          : { state: 'pending', status, error, at, nextAttemptAt: at + Math.min(MAX_RETRY_MILLIS, this.o.firstRetryMillis * 2 ** (attempts - 1)) };
    // The URL may carry a token in its query; the log names the subscription, never the URL or the secret.
    if (error !== null) this.log.info({ subscription: c.subscription.id, event: c.event.id, attempts, status, error }, 'webhook delivery failed');
    await this.ports.changeEvents.finishWebhookDelivery(c.subscription.id, c.event.id, this.o.claimant, outcome);
  }

  /**
   * Stops claiming and waits for the attempts in flight (each ends by its deadline). Deliveries still queued are
   * left to their leases, and claimed again when those end.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
    this.waiting.clear();
    await Promise.all(this.attempts);
  }
}
