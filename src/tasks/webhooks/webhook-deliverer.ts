import http from 'node:http';
import https from 'node:https';
import type { Logger } from 'pino';
import { toEntityChangeEvent } from '../../catalog/events/entity-change-event.ts';
import type { ClaimedDelivery, DeliveryOutcome, Parts } from '../../storage/store.ts';
import { guardedLookup } from './webhook-target.ts';
import type { WebhookSecrets } from './webhook-secrets.ts';
import { DELIVERY_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, signDelivery, TIMESTAMP_HEADER } from './webhook-signature.ts';

export interface DelivererOptions {
  /** Who claims (the task runner's node id): deliveries are leased to one claimant at a time. */
  readonly claimant: string;
  readonly pollMillis?: number;
  readonly batch?: number;
  /** Longer than a request may take, so a lease runs out only when its process is gone. */
  readonly leaseMillis?: number;
  readonly requestTimeoutMillis?: number;
  /** Attempts in all before a delivery is marked failed. */
  readonly maxAttempts?: number;
  /** The wait after the first failed attempt; it doubles after each. */
  readonly firstRetryMillis?: number;
}

export const MAX_ATTEMPTS = 8;
const MAX_RETRY_MILLIS = 10 * 60_000;
const MAX_ERROR_LENGTH = 500;

/**
 * Delivers change events to webhook subscriptions: claims due deliveries, POSTs each event (EntityChangeEvent_v1
 * JSON) signed with the subscription's secret, and records the outcome; a failure is retried with exponential
 * backoff until `maxAttempts`. Every process sharing the database may run one: claims are leased, so each delivery
 * goes out from one process at a time, and a process that dies mid-attempt leaves it to another once the lease ends.
 */
export class WebhookDeliverer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly o: Required<DelivererOptions>;

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
      requestTimeoutMillis: 10_000,
      maxAttempts: MAX_ATTEMPTS,
      firstRetryMillis: 1_000,
      ...options,
    };
  }

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick()
        .catch((err) => this.log.warn({ err }, 'webhook delivery round failed'))
        .finally(() => this.schedule());
    }, this.o.pollMillis);
    this.timer.unref();
  }

  /** One round: every due delivery claimed now is attempted. */
  async tick(): Promise<void> {
    const now = Date.now();
    const claimed = await this.ports.changeEvents.claimWebhookDeliveries(this.o.claimant, now, now + this.o.leaseMillis, this.o.batch);
    await Promise.all(claimed.map((c) => this.deliver(c)));
  }

  private async deliver(c: ClaimedDelivery): Promise<void> {
    const body = JSON.stringify(toEntityChangeEvent(c.event));
    const deliveryId = `${c.subscription.id}.${c.event.id}`;
    let status: number | null = null;
    let error: string | null = null;
    try {
      const timestamp = Date.now();
      const signature = signDelivery(this.secrets.unseal(c.subscription.sealedSecret), timestamp, body);
      status = await this.post(c.subscription.url, body, {
        'Content-Type': 'application/json',
        'User-Agent': 'Almanac-Webhooks/1',
        [EVENT_TYPE_HEADER]: 'EntityChangeEvent_v1',
        [DELIVERY_HEADER]: deliveryId,
        [TIMESTAMP_HEADER]: String(timestamp),
        [SIGNATURE_HEADER]: signature,
      });
      if (status < 200 || status > 299) error = `HTTP ${status}`;
    } catch (e) {
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

  /** One POST; resolves with the status code once the response has been read (its body is discarded). */
  private post(target: string, body: string, headers: Record<string, string>): Promise<number> {
    const url = new URL(target);
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = client.request(
        url,
        {
          method: 'POST',
          headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
          lookup: guardedLookup,
          timeout: this.o.requestTimeoutMillis,
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no response within ${this.o.requestTimeoutMillis} ms`)));
      req.on('error', reject);
      req.end(body);
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
