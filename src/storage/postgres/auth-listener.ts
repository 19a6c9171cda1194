import type pg from 'pg';
import { AUTH_CHANNEL } from '../auth-change-sql.ts';

/** How often the listening connection is asked to answer while no notification arrives. */
export const AUTH_HEARTBEAT_MILLIS = 2_000;
/**
 * The staleness bound: what was cached is trusted only while the listening connection has answered (a heartbeat or a
 * notification) within this long. A connection that dies without a word is thus distrusted this long after it last
 * spoke, and a revocation it failed to deliver is refused from then on; a connection that drops visibly is
 * distrusted at once.
 */
export const AUTH_STALE_AFTER_MILLIS = 5_000;
const RECONNECT_MILLIS = [250, 1_000, 5_000] as const;
export const AUTH_LISTENER_NAME = 'almanac-auth-listener';

/**
 * This process's view of `AUTH_CHANNEL`: a connection of its own that LISTENs, and a mark that moves with every
 * notification, every reconnection and every loss. It starts on first use, so one-shot CLI commands never open it.
 *
 * PostgreSQL sends a notification to every listener before the notifying COMMIT returns to its client, so by the
 * time any client can act on a revocation, the notification is on this process's socket; `mark()` first lets the
 * event loop read what has arrived (one `setImmediate`), so a request handled after the revocation sees it.
 */
export class PostgresAuthListener {
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private live = false;
  private counter = 0;
  private lastHeard = 0;
  private failures = 0;
  private heartbeat: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly newClient: () => pg.Client) {}

  async mark(): Promise<number | undefined> {
    if (!this.live) {
      this.start();
      return undefined;
    }
    await new Promise((resolve) => setImmediate(resolve));
    if (!this.live || Date.now() - this.lastHeard > AUTH_STALE_AFTER_MILLIS) return undefined;
    return this.counter;
  }

  /** The backend pid of the listening connection, while there is one (tests terminate it). */
  get backendPid(): number | undefined {
    return this.live ? (this.client as unknown as { processID?: number } | undefined)?.processID : undefined;
  }

  private start(): void {
    if (this.closed || this.connecting || this.retry) return;
    this.connecting = this.connect()
      .catch(() => this.lost())
      .finally(() => (this.connecting = undefined));
  }

  private async connect(): Promise<void> {
    const client = this.newClient();
    this.client = client;
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', () => this.heard(client, true));
    await client.connect();
    await client.query(`SET application_name = '${AUTH_LISTENER_NAME}'`);
    await client.query(`LISTEN ${AUTH_CHANNEL}`);
    if (this.closed || this.client !== client) {
      await client.end().catch(() => undefined);
      return;
    }
    this.failures = 0;
    this.live = true;
    this.heard(client, true);
    this.heartbeat = setInterval(() => {
      client.query('SELECT 1').then(
        () => this.heard(client, false),
        () => this.lost(client),
      );
    }, AUTH_HEARTBEAT_MILLIS).unref();
  }

  /** A notification (or a new connection) moves the mark; a heartbeat's answer only says the connection is alive. */
  private heard(client: pg.Client, moved: boolean): void {
    if (client !== this.client) return;
    this.lastHeard = Date.now();
    if (moved) this.counter++;
  }

  private lost(client?: pg.Client): void {
    if (client !== undefined && client !== this.client) return;
    const old = this.client;
    this.client = undefined;
    this.live = false;
    this.counter++;
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    old?.end().catch(() => undefined);
    if (this.closed || this.retry) return;
    const wait = RECONNECT_MILLIS[Math.min(this.failures++, RECONNECT_MILLIS.length - 1)];
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.start();
    }, wait).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.heartbeat);
    this.live = false;
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
