import dns from 'node:dns';
import net from 'node:net';
import { badRequest } from '../../catalog/errors.ts';
import { embeddedIpv4 } from './embedded-ipv4.ts';

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

/**
 * Instance metadata services outside the link-local ranges, refused one by one: their neighbours (100.64.0.0/10,
 * shared address space; fd00::/8, unique local) are private ranges receivers may live in.
 */
const METADATA = new net.BlockList();
METADATA.addAddress('100.100.100.200', 'ipv4'); // Alibaba Cloud
METADATA.addAddress('fd00:ec2::254', 'ipv6'); // AWS over IPv6 (Nitro)

/**
 * Why an IP address is one webhooks are never sent to, or null when it is not one. BlockList checks an IPv4-mapped
 * IPv6 address as its IPv4; the other IPv6 forms that carry an IPv4 address are checked as that address.
 */
export function addressRefusal(address: string): string | null {
  const family = net.isIP(address);
  if (family === 0) return null;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (METADATA.check(address, type)) return 'a cloud metadata address';
  if (REFUSED.check(address, type)) return 'a link-local, unspecified, multicast or broadcast address';
  for (const { scheme, ipv4 } of embeddedIpv4(address)) {
    const inner = addressRefusal(ipv4);
    if (inner !== null) return `the ${scheme} form of ${ipv4}, ${inner}`;
  }
  return null;
}

/** Why a URL's host, when it is an IP address, is refused (a name is checked after DNS, by guardedLookup). */
export function hostRefusal(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const refusal = addressRefusal(host);
  return refusal === null ? null : `${host} is ${refusal}`;
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
  const refusal = hostRefusal(url);
  if (refusal !== null) throw badRequest(`url: ${refusal}`);
  return url.toString();
}

/**
 * dns.lookup for outgoing deliveries that refuses the addresses above, so a name that resolves to one (or is made
 * to, later) is not followed there. Node skips the lookup for an IP-address host: the deliverer checks those itself
 * (hostRefusal).
 */
export const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, options, (err, address, family) => {
    if (err) return callback(err, address as string, family);
    const all = Array.isArray(address) ? (address as dns.LookupAddress[]) : [{ address: address as string, family: family ?? 4 }];
    for (const a of all) {
      const refusal = addressRefusal(a.address);
      if (refusal !== null)
        return callback(Object.assign(new Error(`${hostname} resolves to ${a.address}, ${refusal}`), { code: 'EREFUSEDADDRESS' }), '', 4);
    }
    (callback as (e: null, a: unknown, f?: number) => void)(null, address, family);
  });
};
