import net from 'node:net';

/** An IPv4 address carried inside an IPv6 one, and the transition scheme that puts it there. */
export interface EmbeddedIpv4 {
  readonly scheme: string;
  readonly ipv4: string;
}

/** The 16 bytes of a valid IPv6 address (a zone id is dropped; a dotted-quad tail is read as its 4 bytes). */
function ipv6Bytes(address: string): number[] {
  const words = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((w) => {
          if (!w.includes('.')) return [parseInt(w, 16)];
          const [a, b, c, d] = w.split('.').map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head, tail] = address.replace(/%.*$/, '').split('::') as [string, string | undefined];
  const h = words(head);
  const t = tail === undefined ? [] : words(tail);
  const all = tail === undefined ? h : [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
  return all.flatMap((w) => [w >> 8, w & 0xff]);
}

const quad = (b: readonly number[]): string => b.join('.');
const zero = (b: readonly number[], from: number, to: number): boolean => b.slice(from, to).every((x) => x === 0);

/**
 * The IPv4 addresses an IPv6 address may reach, by the scheme its prefix names: a host that translates or tunnels it
 * (NAT64, 6to4, Teredo) connects to that IPv4 address, so it must pass the IPv4 rules too. IPv4-mapped addresses
 * (::ffff:0:0/96) are left out: BlockList already checks them as IPv4. `::` and `::1` are their own addresses, not
 * IPv4-compatible ones.
 */
export function embeddedIpv4(address: string): EmbeddedIpv4[] {
  if (!net.isIPv6(address)) return [];
  const b = ipv6Bytes(address);
  const w = (i: number): number => (b[2 * i]! << 8) | b[2 * i + 1]!;
  const last = b.slice(12, 16);
  // ::a.b.c.d (RFC 4291: deprecated, but old stacks tunnel it automatically); ::ffff:0:a.b.c.d (SIIT, RFC 2765).
  if (zero(b, 0, 12) && !(zero(b, 12, 15) && b[15]! <= 1)) return [{ scheme: 'IPv4-compatible', ipv4: quad(last) }];
  if (zero(b, 0, 8) && w(4) === 0xffff && w(5) === 0) return [{ scheme: 'IPv4-translated', ipv4: quad(last) }];
  // 64:ff9b::/96, the well-known NAT64 prefix (RFC 6052).
  if (w(0) === 0x64 && w(1) === 0xff9b && zero(b, 4, 12)) return [{ scheme: 'NAT64', ipv4: quad(last) }];
  // 64:ff9b:1::/48, local-use NAT64 (RFC 8215): the operator picks the prefix length (/48 to /96), so the address
  // is read at each RFC 6052 position. Outside /96, a read in 0.0.0.0/8 is the zero padding of a longer prefix, not
  // an address any translator forwards to, and is dropped so that 64:ff9b:1::a.b.c.d is not refused for it.
  if (w(0) === 0x64 && w(1) === 0xff9b && w(2) === 1)
    return [
      [b[6]!, b[7]!, b[9]!, b[10]!],
      [b[7]!, b[9]!, b[10]!, b[11]!],
      [b[9]!, b[10]!, b[11]!, b[12]!],
    ]
      .filter((q) => q[0] !== 0)
      .concat([last])
      .map((q) => ({ scheme: 'NAT64', ipv4: quad(q) }));
  // 2002::/16, 6to4 (RFC 3056): packets go, tunnelled, to the IPv4 address in bits 16 to 47.
  if (w(0) === 0x2002) return [{ scheme: '6to4', ipv4: quad(b.slice(2, 6)) }];
  // 2001::/32, Teredo (RFC 4380): the server's address in bits 32 to 63, the client's inverted in the last 32.
  if (w(0) === 0x2001 && w(1) === 0)
    return [
      { scheme: 'Teredo server', ipv4: quad(b.slice(4, 8)) },
      { scheme: 'Teredo client', ipv4: quad(last.map((x) => x ^ 0xff)) },
    ];
  return [];
}
