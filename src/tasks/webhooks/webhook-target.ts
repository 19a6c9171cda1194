import dns from 'node:dns';
import net from 'node:net';
import { badRequest } from '../../catalog/errors.ts';

const MAX_URL_LENGTH = 2048;

/**
 * Addresses a webhook is never sent to: link-local (169.254.0.0/16, fe80::/10, where clouds serve instance
 * credentials), unspecified, multicast and broadcast. Loopback and private ranges are allowed: receivers usually run
 * beside the catalog on its own network, and only holders of MANAGE_WEBHOOKS_PRIVILEGE (Admins) subscribe.
 */
const REFUSED = new net.BlockList();
REFUSED.addSubnet('169.254.0.0', 16, 'ipv4');
REFUSED.addSubnet('0.0.0.0', 8, 'ipv4');
REFUSED.addSubnet('224.0.0.0', 4, 'ipv4');
REFUSED.addAddress('255.255.255.255', 'ipv4');
REFUSED.addSubnet('fe80::', 10, 'ipv6');
REFUSED.addSubnet('ff00::', 8, 'ipv6');
REFUSED.addAddress('::', 'ipv6');

/** Whether an IP address is one webhooks are never sent to (BlockList checks an IPv4-mapped IPv6 address as its IPv4). */
export function refusedAddress(address: string): boolean {
  const family = net.isIP(address);
  return family === 4 ? REFUSED.check(address, 'ipv4') : family === 6 ? REFUSED.check(address, 'ipv6') : false;
}

/** A subscription's target: an http or https URL without credentials, not a refused address; 400 naming `url` otherwise. */
export function validateWebhookUrl(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw badRequest('url: required, an http or https URL');
  if (raw.length > MAX_URL_LENGTH) throw badRequest(`url: at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest(`url: not a URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest(`url: must be http or https, got ${url.protocol.replace(/:$/, '')}`);
  if (url.username !== '' || url.password !== '') throw badRequest('url: must not carry credentials; the signature authenticates deliveries');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (refusedAddress(host)) throw badRequest(`url: ${host} is a link-local, unspecified, multicast or broadcast address`);
  return url.toString();
}

/**
 * dns.lookup for outgoing deliveries that refuses the addresses above, so a name that resolves to one (or is made
 * to, later) is not followed there.
 */
export const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, options, (err, address, family) => {
    if (err) return callback(err, address as string, family);
    const all = Array.isArray(address) ? (address as dns.LookupAddress[]) : [{ address: address as string, family: family ?? 4 }];
    const bad = all.find((a) => refusedAddress(a.address));
    if (bad) return callback(Object.assign(new Error(`${hostname} resolves to refused address ${bad.address}`), { code: 'EREFUSEDADDRESS' }), '', 4);
    (callback as (e: null, a: unknown, f?: number) => void)(null, address, family);
  });
};
