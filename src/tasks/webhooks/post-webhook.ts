import http from 'node:http';
import https from 'node:https';
import { guardedLookup, hostRefusal } from './webhook-target.ts';

/** Enough for any acknowledgement; a receiver's answer is never used beyond its status. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

export type AttemptFailure = 'REFUSED_ADDRESS' | 'DEADLINE' | 'BODY_TOO_LARGE';

/** An attempt this side ended: the target is refused, or the receiver overran a limit (`status` is what it had sent). */
export class WebhookAttemptError extends Error {
  constructor(
    readonly code: AttemptFailure,
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'WebhookAttemptError';
  }
}

export interface PostLimits {
  /** The whole exchange: DNS, connect, TLS, request, response headers and body. */
  readonly deadlineMillis: number;
  readonly maxResponseBytes: number;
}

/**
 * One POST; resolves with the status once the response has ended. The deadline is a timer that destroys the request,
 * not a socket idle timeout, so a receiver that trickles bytes cannot stretch it; the response body is counted, not
 * kept, and the connection is dropped once it passes the cap, so an endless body costs a few reads.
 */
export function postWebhook(target: string, body: string, headers: Record<string, string>, limits: PostLimits): Promise<number> {
  const url = new URL(target);
  // Node connects to an IP-address host without a lookup, so guardedLookup never sees it: checked here, which also
  // covers subscriptions made before a rule was added.
  const refusal = hostRefusal(url);
  if (refusal !== null) return Promise.reject(new WebhookAttemptError('REFUSED_ADDRESS', `${refusal}; not sent`, null));
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let status: number | null = null;
    let settled = false;
    const settle = (err: Error | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err === null) return resolve(status ?? 0);
      req.destroy();
      reject(err);
    };
    const req = client.request(
      url,
      { method: 'POST', headers: { ...headers, 'Content-Length': Buffer.byteLength(body) }, lookup: guardedLookup },
      (res) => {
        status = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > limits.maxResponseBytes)
            settle(
              new WebhookAttemptError(
                'BODY_TOO_LARGE',
                `response body over ${limits.maxResponseBytes} bytes (HTTP ${status}); connection dropped`,
                status,
              ),
            );
        });
        res.on('end', () => settle(null));
        res.on('error', settle);
      },
    );
    // Started before the lookup and the connection, which run after this synchronous part.
    const timer = setTimeout(() => {
      const what = status === null ? 'no response' : `response body not complete (HTTP ${status})`;
      settle(new WebhookAttemptError('DEADLINE', `${what} within the ${limits.deadlineMillis} ms attempt deadline; connection dropped`, status));
    }, limits.deadlineMillis);
    req.on('error', settle);
    req.end(body);
  });
}
