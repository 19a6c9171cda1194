import type pg from 'pg';
import { AUTH_CHANNEL } from '../auth-change-sql.ts';
import { EVENT_LOG_CHANNEL } from '../log-signal.ts';

/** How often an idle listening connection is asked to answer, so a dead one is found and replaced before it is needed. */
export const AUTH_HEARTBEAT_MILLIS = 2_000;
/** How long a request waits for the listening connection to answer before it reads what it needs instead. */
export const AUTH_BARRIER_TIMEOUT_MILLIS = 1_000;
const RECONNECT_MILLIS = [250, 1_000, 5_000] as const;
export const AUTH_LISTENER_NAME = 'almanac-auth-listener';

function withTimeout<T>(p: Promise<T>, millis: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${millis} ms`)), millis);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/**
 * This process's view of `AUTH_CHANNEL`: a connection of its own that LISTENs, and a mark that moves with every
 * notification, every reconnection and every loss. It starts on first use, so one-shot CLI commands never open it.
 * A request asks for the mark through a barrier (below), so it sees every change committed before it arrived, in
 * whichever process; while the connection is down or does not answer, there is no mark and every request reads.
 */
export class PostgresAuthListener {
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private live = false;
  private counter = 0;
  private failures = 0;
  private heartbeat: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly logWakers: Array<() => void> = [];

  constructor(private readonly newClient: () => pg.Client) {}

  async mark(): Promise<number | undefined> {
    const client = this.client;
    if (!this.live || client === undefined) {
      this.start();
      return undefined;
    }
    try {
      await this.barrier(client);
    } catch {
      this.lost(client);
      return undefined;
    }
    return this.live && this.client === client ? this.counter : undefined;
  }

  /**
   * A round trip on the listening connection that began after the caller arrived: PostgreSQL sends a listener the
   * notifications of transactions committed before it reads a command ahead of that command's answer, so once it
   * returns, every change committed before the caller's request has moved the mark. Callers that arrive while one
   * is on the way share the next one, so under load it costs one `SELECT 1` per batch of requests, never a read of
   * the tables. It fails after AUTH_BARRIER_TIMEOUT_MILLIS: the connection is then taken for lost.
   */
  private barrier(client: pg.Client): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.inFlight) return this.send(client);
    // The one on the way was sent before this caller arrived: wait for the next, sent as soon as it returns.
    const queued = this.inFlight
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.send(client);
      });
    this.queued = queued;
    return queued;
  }

  private send(client: pg.Client): Promise<void> {
    const sent = withTimeout(client.query('SELECT 1'), AUTH_BARRIER_TIMEOUT_MILLIS).then(() => this.heard(client, false));
    this.inFlight = sent;
    const clear = () => {
      if (this.inFlight === sent) this.inFlight = undefined;
    };
    sent.then(clear, clear);
    return sent;
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
    client.on('notification', (n) => (n.channel === EVENT_LOG_CHANNEL ? this.logged() : this.heard(client, true)));
    await client.connect();
    await client.query(`SET application_name = '${AUTH_LISTENER_NAME}'`);
    await client.query(`LISTEN ${AUTH_CHANNEL}`);
    await client.query(`LISTEN ${EVENT_LOG_CHANNEL}`);
    if (this.closed || this.client !== client) {
      await client.end().catch(() => undefined);
      return;
    }
    this.failures = 0;
    this.live = true;
    this.heard(client, true);
    // What was committed while nobody listened is read now.
    this.logged();
    this.heartbeat = setInterval(() => {
      client.query('SELECT 1').then(
        () => this.heard(client, false),
        () => this.lost(client),
      );
    }, AUTH_HEARTBEAT_MILLIS).unref();
  }

  /** A notification (or a new connection) moves the mark; a heartbeat's or a barrier's answer does not. */
  private heard(client: pg.Client, moved: boolean): void {
    if (client === this.client && moved) this.counter++;
  }

  /** The change log's wakes (postgres/change-events.ts): every notification of EVENT_LOG_CHANNEL, every (re)connection. */
  onEventLog(wake: () => void): void {
    this.logWakers.push(wake);
    this.start();
  }

  /** Whether notifications are heard now; while not, the log's long polls read again on a short timer. */
  get hearing(): boolean {
    return this.live;
  }

  private logged(): void {
    for (const wake of this.logWakers) wake();
  }

  private lost(client?: pg.Client): void {
    if (client !== undefined && client !== this.client) return;
    const old = this.client;
    this.client = undefined;
    this.live = false;
    this.logged();
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
