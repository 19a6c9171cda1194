import http from 'node:http';

export interface ReceivedDelivery {
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  readonly json: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** The status this receiver answered. */
  readonly status: number;
}

export interface WebhookReceiver {
  readonly url: string;
  readonly received: ReceivedDelivery[];
  /** Statuses to answer, in order; 200 once they run out. */
  answer(statuses: readonly number[]): void;
  /** Resolves once `count` deliveries have arrived (rejects after `timeoutMillis`). */
  waitFor(count: number, timeoutMillis?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

/** A real HTTP server on loopback that records every POST it receives, as a webhook consumer would. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  let statuses: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const status = statuses.shift() ?? 200;
      let json = {};
      try {
        json = JSON.parse(body) as Record<string, unknown>;
      } catch {
        // Recorded as is; a test asserting the body fails on it.
      }
      received.push({ headers: req.headers, body, json, status });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'not now');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks/almanac`,
    received,
    answer: (s) => (statuses = [...s]),
    waitFor: async (count, timeoutMillis = 15_000) => {
      const until = Date.now() + timeoutMillis;
      while (received.length < count) {
        if (Date.now() > until) throw new Error(`expected ${count} deliveries, got ${received.length} in ${timeoutMillis} ms`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return received.slice(0, count);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
