import http from 'node:http';

export interface ReceivedDelivery {
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  readonly json: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** The status this receiver answered. */
  readonly status: number;
  /** When its request had been read. */
  readonly at: number;
}

/**
 * How a hostile or broken receiver answers: `trickle` sends 200 with `Content-Length: 100000` and then one byte at a
 * time (never idle for long, never done); `endless` sends 200 and a chunked body without end, as fast as it is read;
 * `silent` reads the request and never answers.
 */
export type Misbehaviour = 'trickle' | 'endless' | 'silent';

/** One request as this receiver saw it, answered or not. */
export interface ReceivedRequest {
  readonly json: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  readonly at: number;
  /** When the exchange ended (its connection closed, or its response ended); undefined while still open. */
  closedAt: number | undefined;
}

export interface WebhookReceiver {
  readonly url: string;
  /** The deliveries answered in full (a misbehaving receiver answers none). */
  readonly received: ReceivedDelivery[];
  /** Every request, answered or not. */
  readonly requests: ReceivedRequest[];
  /** The most requests open at the same time so far. */
  readonly mostOpen: number;
  /** Statuses to answer, in order; 200 once they run out. */
  answer(statuses: readonly number[]): void;
  /** Resolves once `count` deliveries have arrived (rejects after `timeoutMillis`). */
  waitFor(count: number, timeoutMillis?: number): Promise<ReceivedDelivery[]>;
  /** Resolves once `count` requests have arrived, answered or not (rejects after `timeoutMillis`). */
  waitForRequests(count: number, timeoutMillis?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

const TRICKLE_MILLIS = 100;
const ENDLESS_CHUNK = Buffer.alloc(16 * 1024, 'x');

async function until<T>(ready: () => boolean, value: () => T, timeoutMillis: number, what: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMillis;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`${what()} in ${timeoutMillis} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return value();
}

/** Writes to `res` without end, at the pace its reader takes it, until the connection goes. */
function writeEndlessly(res: http.ServerResponse): void {
  const more = (): void => {
    while (!res.destroyed) {
      if (!res.write(ENDLESS_CHUNK)) return void res.once('drain', more);
    }
  };
  more();
}

/**
 * A real HTTP server on loopback that records every POST it receives, as a webhook consumer would; with a
 * misbehaviour, one that holds or floods the sender instead of answering.
 */
export async function startWebhookReceiver(options: { misbehave?: Misbehaviour } = {}): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const requests: ReceivedRequest[] = [];
  let statuses: number[] = [];
  let open = 0;
  let mostOpen = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let seen: ReceivedRequest | undefined;
    open += 1;
    mostOpen = Math.max(mostOpen, open);
    res.on('close', () => {
      open -= 1;
      if (seen) seen.closedAt = Date.now();
    });
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json = {};
      try {
        json = JSON.parse(body) as Record<string, unknown>;
      } catch {
        // Recorded as is; a test asserting the body fails on it.
      }
      seen = { json, at: Date.now(), closedAt: undefined };
      requests.push(seen);
      if (options.misbehave === 'trickle') {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 100_000 });
        const timer = setInterval(() => {
          res.write('.');
        }, TRICKLE_MILLIS);
        res.on('close', () => clearInterval(timer));
      } else if (options.misbehave === 'endless') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        writeEndlessly(res);
      } else if (options.misbehave === undefined) {
        const status = statuses.shift() ?? 200;
        received.push({ headers: req.headers, body, json, status, at: seen.at });
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'not now');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks/almanac`,
    received,
    requests,
    get mostOpen() {
      return mostOpen;
    },
    answer: (s) => (statuses = [...s]),
    waitFor: (count, timeoutMillis = 15_000) =>
      until(
        () => received.length >= count,
        () => received.slice(0, count),
        timeoutMillis,
        () => `expected ${count} deliveries, got ${received.length}`,
      ),
    waitForRequests: (count, timeoutMillis = 15_000) =>
      until(
        () => requests.length >= count,
        () => requests.slice(0, count),
        timeoutMillis,
        () => `expected ${count} requests, got ${requests.length}`,
      ),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // A misbehaving receiver's exchanges never end on their own.
        server.closeAllConnections();
      }),
  };
}
