import crypto from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Almanac-Signature-256';
export const TIMESTAMP_HEADER = 'X-Almanac-Timestamp';
export const DELIVERY_HEADER = 'X-Almanac-Delivery';
export const EVENT_TYPE_HEADER = 'X-Almanac-Event-Type';

/**
 * `sha256=` and the hex HMAC-SHA256, under the subscription's secret, of `<timestamp>.<body>`: signing the time too
 * lets a receiver refuse a replayed delivery by its age.
 */
export function signDelivery(secret: string, timestamp: number, body: string): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What a receiver does (documented in the README): recompute and compare in constant time. */
export function verifyDelivery(secret: string, timestamp: number, body: string, signature: string): boolean {
  const expected = Buffer.from(signDelivery(secret, timestamp, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}
