import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { describe, it } from 'node:test';
import { addressRefusal, guardedLookup } from '../../src/tasks/webhooks/webhook-target.ts';

const LINK_LOCAL = 'a link-local, unspecified, multicast or broadcast address';

/** guardedLookup as a promise: the addresses it lets through, or its error. */
const lookup = (hostname: string, all: boolean): Promise<string | LookupAddress[]> =>
  new Promise((resolve, reject) =>
    guardedLookup(hostname, { all }, (err, address) => (err ? reject(err) : resolve(address as string | LookupAddress[]))),
  );

describe('webhook target addresses', () => {
  it('refuses cloud metadata addresses and every IPv6 form that carries a refused IPv4 address', () => {
    for (const [address, refusal] of [
      ['169.254.169.254', LINK_LOCAL],
      ['100.100.100.200', 'a cloud metadata address'],
      ['fd00:ec2::254', 'a cloud metadata address'],
      ['::ffff:a9fe:a9fe', LINK_LOCAL],
      ['::ffff:100.100.100.200', 'a cloud metadata address'],
      ['64:ff9b::a9fe:a9fe', `the NAT64 form of 169.254.169.254, ${LINK_LOCAL}`],
      ['64:ff9b::6464:64c8', 'the NAT64 form of 100.100.100.200, a cloud metadata address'],
      ['64:ff9b::e000:1', `the NAT64 form of 224.0.0.1, ${LINK_LOCAL}`],
      // Local-use NAT64 at its /96 position and at its /48 one (the u-octet, bits 64 to 71, skipped).
      ['64:ff9b:1::a9fe:a9fe', `the NAT64 form of 169.254.169.254, ${LINK_LOCAL}`],
      ['64:ff9b:1:a9fe:a9:fe00::', `the NAT64 form of 169.254.169.254, ${LINK_LOCAL}`],
      ['::a9fe:a9fe', `the IPv4-compatible form of 169.254.169.254, ${LINK_LOCAL}`],
      ['::ffff:0:a9fe:a9fe', `the IPv4-translated form of 169.254.169.254, ${LINK_LOCAL}`],
      ['2002:a9fe:a9fe::', `the 6to4 form of 169.254.169.254, ${LINK_LOCAL}`],
      ['2002:a9fe:a9fe:1:2:3:4:5', `the 6to4 form of 169.254.169.254, ${LINK_LOCAL}`],
      ['2001:0:a9fe:a9fe::1', `the Teredo server form of 169.254.169.254, ${LINK_LOCAL}`],
      // The Teredo client address is stored inverted: 0x5601 ^ 0xffff = 0xa9fe.
      ['2001:0:4136:e378:8000:63bf:5601:5601', `the Teredo client form of 169.254.169.254, ${LINK_LOCAL}`],
      ['fe80::1', LINK_LOCAL],
      ['::', LINK_LOCAL],
    ]) {
      assert.equal(addressRefusal(address!), refusal, address);
    }
  });

  it('allows loopback, private and public addresses, and the IPv6 forms of allowed IPv4 addresses', () => {
    for (const address of [
      '127.0.0.1',
      '::1',
      '10.1.2.3',
      '192.168.1.1',
      '100.64.0.1',
      '100.100.100.201',
      'fd00::1',
      'fd00:ec2::253',
      '2001:db8::1',
      '::ffff:10.1.2.3',
      '64:ff9b::a00:1',
      '64:ff9b:1::7f00:1',
      '2002:a00:1::',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    ]) {
      assert.equal(addressRefusal(address), null, address);
    }
  });

  it('refuses a name that resolves to a refused address, and lets loopback through, after the lookup', async () => {
    // dns.lookup answers an address given as the name with itself, so these exercise the check after resolution.
    for (const all of [false, true]) {
      await assert.rejects(lookup('64:ff9b::a9fe:a9fe', all), (err: NodeJS.ErrnoException) => {
        assert.equal(err.code, 'EREFUSEDADDRESS');
        assert.equal(err.message, `64:ff9b::a9fe:a9fe resolves to 64:ff9b::a9fe:a9fe, the NAT64 form of 169.254.169.254, ${LINK_LOCAL}`);
        return true;
      });
      await assert.rejects(lookup('100.100.100.200', all), /resolves to 100\.100\.100\.200, a cloud metadata address/);
    }
    assert.equal(await lookup('127.0.0.1', false), '127.0.0.1');
    assert.deepEqual(await lookup('::1', true), [{ address: '::1', family: 6 }]);
  });
});
