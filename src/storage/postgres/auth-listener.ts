import crypto from 'node:crypto';
import type pg from 'pg';
import { AUTH_CHANNEL } from '../auth-change-sql.ts';
import { EVENT_LOG_CHANNEL } from '../log-signal.ts';
import { insertPositionAsReplayed, parseLsn, WAL_GEOMETRY_SQL, type WalGeometry } from './wal-lsn.ts';

/** How often an idle listening connection is asked to answer, so a dead one is found and replaced before it is needed. */
export const AUTH_HEARTBEAT_MILLIS = 2_000;
/** How long a request waits for the listening connection to answer before it reads what it needs instead. */
export const AUTH_BARRIER_TIMEOUT_MILLIS = 1_000;
/** How long start-up waits for a notification sent through the pool to reach the listener. */
export const LISTENER_CHECK_MILLIS = 3_000;
const RECONNECT_MILLIS = [250, 1_000, 5_000] as const;
export const AUTH_LISTENER_NAME = 'almanac-auth-listener';
/** The channel of the listener's own probes: a notification sent through the pool that must come back to it. */
export const PROBE_CHANNEL = 'almanac_listener_probe';
/**
 * One round trip that also reads a primary's WAL position before which every commit that returned lies. With
 * synchronous commits (PostgreSQL's default) a commit returns only once its record is flushed, so the flush position
 * is enough, and it is the position a replica can reach: WAL inserted but not yet flushed (a read's page pruning, a
 * transaction in progress) is not streamed until the WAL writer flushes it, up to 200 ms later. With
 * `synchronous_commit=off` a commit is visible before it is flushed, and only the insert position covers it.
 */
const BARRIER_SQL = {
  flush: 'SELECT pg_current_wal_flush_lsn()::text AS lsn',
  insert: 'SELECT pg_current_wal_insert_lsn()::text AS lsn',
} as const;

/** Why a listener that cannot hear the database is refused at start (README: "Behind PgBouncer"). */
export const LISTENER_UNHEARD_MESSAGE =
  `a notification sent through ALMANAC_DATABASE_URL did not reach the LISTEN connection of ALMANAC_DATABASE_LISTEN_URL ` +
  `within ${LISTENER_CHECK_MILLIS} ms: the listener must connect to the PostgreSQL primary directly, not through a ` +
  'transaction-mode pooler such as PgBouncer (set ALMANAC_DATABASE_LISTEN_URL to the server itself)';

function withTimeout<T>(p: Promise<T>, millis: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${millis} ms`)), millis);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** A probe on its way: sent through the pool, waiting to be heard on the listening connection. */
interface Probe {
  readonly payload: string;
  heard: boolean;
  sent: boolean;
  readonly arrived: Promise<void>;
  resolve(): void;
}

/**
 * This process's view of `AUTH_CHANNEL`: a connection of its own (straight to the primary) that LISTENs, and a mark
 * that moves with every notification, every reconnection and every loss. It starts on first use, so one-shot CLI
 * commands never open it. A request asks for the mark through a barrier (below), so it sees every change committed
 * before it arrived, in whichever process; while the connection is down or does not answer, there is no mark and
 * every request reads. Each barrier also reads the primary's WAL position, which is what a read replica must have
 * replayed to answer that request (`position`). Its heartbeat sends a probe notification through the pool and
 * checks that the one before came back, so a listener behind a transaction-mode pooler (which drops notifications)
 * is taken for lost rather than trusted.
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
  private connectError: unknown;
  private geometry: WalGeometry | undefined;
  private barrierSql: string = BARRIER_SQL.insert;
  /** The heartbeat's latest probe, and every probe not yet heard (the start-up check's among them). */
  private probe: Probe | undefined;
  private readonly pending = new Map<string, Probe>();
  private readonly nonce = crypto.randomUUID();
  private probes = 0;
  /** Barriers sent so far: a caller that noted this number knows a later one was sent after it. */
  private sentCount = 0;
  /** The latest answered barrier: its number and the primary's position it read. */
  private latest: { readonly seq: number; readonly lsn: number } | undefined;
  /** Told each primary position a barrier or heartbeat reads, with when (replica lag is measured against these). */
  onPosition: ((lsn: number, at: number) => void) | undefined;
  private readonly logWakers: Array<() => void> = [];

  /**
   * `newClient` connects to the primary itself (ALMANAC_DATABASE_LISTEN_URL); `notify` sends a notification
   * through the pool (which may be a pooler's).
   */
  constructor(
    private readonly newClient: () => pg.Client,
    private readonly notify: (channel: string, payload: string) => Promise<unknown>,
  ) {}

  async mark(): Promise<number | undefined> {
    const client = await this.sync();
    return client !== undefined && this.live && this.client === client ? this.counter : undefined;
  }

  /** Waits for a barrier sent after the call; the listening connection it went through, or undefined while there is none. */
  private async sync(): Promise<pg.Client | undefined> {
    const client = this.client;
    if (!this.live || client === undefined) {
      this.start();
      return undefined;
    }
    try {
      await this.barrier(client);
      return client;
    } catch {
      this.lost(client);
      return undefined;
    }
  }

  /** The number of the latest barrier sent: a `position(after)` asked with it needs one sent later. */
  get barriersSent(): number {
    return this.sentCount;
  }

  /**
   * The primary's WAL position read by a barrier sent after barrier number `after`: every change committed before
   * that barrier was sent lies before it. Shares the barrier a request's authentication already sent when there
   * is one; undefined while the listening connection is down (a replica cannot then be shown fresh).
   */
  async position(after: number): Promise<number | undefined> {
    if (this.latest === undefined || this.latest.seq <= after) await this.sync();
    return this.latest !== undefined && this.latest.seq > after ? this.latest.lsn : undefined;
  }

  /**
   * A round trip on the listening connection that began after the caller arrived: PostgreSQL sends a listener the
   * notifications of transactions committed before it reads a command ahead of that command's answer, so once it
   * returns, every change committed before the caller's request has moved the mark. Callers that arrive while one
   * is on the way share the next one, so under load it costs one query per batch of requests, never a read of the
   * tables. It fails after AUTH_BARRIER_TIMEOUT_MILLIS: the connection is then taken for lost.
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
    const seq = ++this.sentCount;
    const sent = withTimeout(this.readPosition(client, seq), AUTH_BARRIER_TIMEOUT_MILLIS);
    this.inFlight = sent;
    const clear = () => {
      if (this.inFlight === sent) this.inFlight = undefined;
    };
    sent.then(clear, clear);
    return sent;
  }

  private async readPosition(client: pg.Client, seq: number): Promise<void> {
    const r = await client.query<{ lsn: string }>(this.barrierSql);
    if (client !== this.client || this.geometry === undefined) return;
    const lsn = insertPositionAsReplayed(parseLsn(r.rows[0]!.lsn), this.geometry);
    if (this.latest === undefined || seq > this.latest.seq) this.latest = { seq, lsn };
    this.onPosition?.(lsn, Date.now());
  }

  /** The backend pid of the listening connection, while there is one (tests terminate it). */
  get backendPid(): number | undefined {
    return this.live ? (this.client as unknown as { processID?: number } | undefined)?.processID : undefined;
  }

  /**
   * Connects if need be and shows that a notification sent through the pool reaches the listening connection;
   * throws LISTENER_UNHEARD_MESSAGE when it does not (a listener behind a transaction-mode pooler).
   */
  async check(): Promise<void> {
    this.start();
    await this.connecting;
    const client = this.client;
    if (!this.live || client === undefined) {
      throw new Error(`the LISTEN connection (ALMANAC_DATABASE_LISTEN_URL) could not connect: ${(this.connectError as Error | undefined)?.message}`);
    }
    const probe = this.sendProbe();
    try {
      await withTimeout(probe.arrived, LISTENER_CHECK_MILLIS);
    } catch {
      throw new Error(LISTENER_UNHEARD_MESSAGE);
    }
  }

  private sendProbe(): Probe {
    let resolve!: () => void;
    const arrived = new Promise<void>((r) => (resolve = r));
    const probe: Probe = { payload: `${this.nonce}:${++this.probes}`, heard: false, sent: false, arrived, resolve };
    this.pending.set(probe.payload, probe);
    this.notify(PROBE_CHANNEL, probe.payload).then(
      () => (probe.sent = true),
      () => undefined, // the pool is down: nothing to learn about the listener
    );
    return probe;
  }

  private start(): void {
    if (this.closed || this.connecting || this.retry) return;
    this.connecting = this.connect()
      .catch((e: unknown) => {
        this.connectError = e;
        this.lost();
      })
      .finally(() => (this.connecting = undefined));
  }

  private async connect(): Promise<void> {
    const client = this.newClient();
    this.client = client;
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (n) => this.notified(client, n));
    await client.connect();
    await client.query(`LISTEN ${AUTH_CHANNEL}`);
    await client.query(`LISTEN ${EVENT_LOG_CHANNEL}`);
    await client.query(`LISTEN ${PROBE_CHANNEL}`);
    const geometry = (await client.query<{ block: number; segment: number }>(WAL_GEOMETRY_SQL)).rows[0]!;
    const commits = (await client.query<{ mode: string }>("SELECT current_setting('synchronous_commit') AS mode")).rows[0]!;
    if (this.closed || this.client !== client) {
      await client.end().catch(() => undefined);
      return;
    }
    this.geometry = { blockSize: Number(geometry.block), segmentSize: Number(geometry.segment) };
    this.barrierSql = commits.mode === 'off' ? BARRIER_SQL.insert : BARRIER_SQL.flush;
    this.failures = 0;
    this.live = true;
    this.counter++;
    // What was committed while nobody listened is read now.
    this.logged();
    this.heartbeat = setInterval(() => this.beat(client), AUTH_HEARTBEAT_MILLIS).unref();
  }

  /** Finds a dead connection, and a deaf one: the probe sent last time must have come back by now. */
  private beat(client: pg.Client): void {
    const last = this.probe;
    if (last !== undefined && last.sent && !last.heard) {
      this.lost(client);
      return;
    }
    if (last !== undefined) this.pending.delete(last.payload);
    this.readPosition(client, ++this.sentCount).catch(() => this.lost(client));
    this.probe = this.sendProbe();
  }

  /** A notification on the auth channel (or a new connection) moves the mark; this process's probe marks itself heard. */
  private notified(client: pg.Client, n: pg.Notification): void {
    if (client !== this.client) return;
    if (n.channel === EVENT_LOG_CHANNEL) {
      this.logged();
      return;
    }
    if (n.channel !== PROBE_CHANNEL) {
      this.counter++;
      return;
    }
    const probe = n.payload === undefined ? undefined : this.pending.get(n.payload);
    if (probe !== undefined) {
      this.pending.delete(probe.payload);
      probe.heard = true;
      probe.resolve();
    }
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
    this.latest = undefined;
    this.probe = undefined;
    this.pending.clear();
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
