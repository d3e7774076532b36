/**
 * The address table of the SSRF hardening: every range that must not be reached by default,
 * refused by AddressPolicy(false), allowed by `true` and by a CIDR list naming it, and the
 * public addresses (IPv6 carrying a public IPv4 included) allowed throughout.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AddressPolicy } from '../../src/net/address-policy.js';

interface Row {
  address: string;
  /** What the refusal names: the range, and the carried IPv4 address for IPv6 that carries one. */
  refusal: RegExp;
  /** A CIDR list entry that allows exactly this range. */
  allowedBy: string;
}

const REFUSED: Row[] = [
  // IPv4
  { address: '127.0.0.1', refusal: /is a loopback address/, allowedBy: '127.0.0.0/8' },
  { address: '127.255.255.254', refusal: /loopback/, allowedBy: '127.0.0.0/8' },
  { address: '0.0.0.0', refusal: /unspecified/, allowedBy: '0.0.0.0/8' },
  { address: '0.1.2.3', refusal: /unspecified/, allowedBy: '0.0.0.0/8' },
  { address: '10.0.0.1', refusal: /private/, allowedBy: '10.0.0.0/8' },
  { address: '10.255.255.255', refusal: /private/, allowedBy: '10.0.0.0/8' },
  { address: '172.16.0.1', refusal: /private/, allowedBy: '172.16.0.0/12' },
  { address: '172.31.255.254', refusal: /private/, allowedBy: '172.16.0.0/12' },
  { address: '192.168.0.1', refusal: /private/, allowedBy: '192.168.0.0/16' },
  { address: '100.64.0.1', refusal: /carrierGradeNat/, allowedBy: '100.64.0.0/10' },
  { address: '100.127.255.254', refusal: /carrierGradeNat/, allowedBy: '100.64.0.0/10' },
  { address: '169.254.169.254', refusal: /linkLocal/, allowedBy: '169.254.0.0/16' },
  { address: '224.0.0.1', refusal: /multicast/, allowedBy: '224.0.0.0/4' },
  { address: '239.255.255.250', refusal: /multicast/, allowedBy: '224.0.0.0/4' },
  { address: '240.0.0.1', refusal: /reserved/, allowedBy: '240.0.0.0/4' },
  { address: '255.255.255.255', refusal: /broadcast/, allowedBy: '255.255.255.255/32' },
  { address: '192.0.0.8', refusal: /reserved/, allowedBy: '192.0.0.0/24' },
  { address: '198.18.0.1', refusal: /reserved/, allowedBy: '198.18.0.0/15' },
  { address: '198.19.255.254', refusal: /reserved/, allowedBy: '198.18.0.0/15' },
  // Documentation ranges (TEST-NET-1/2/3) and the 6to4 relay anycast.
  { address: '192.0.2.1', refusal: /reserved/, allowedBy: '192.0.2.0/24' },
  { address: '198.51.100.1', refusal: /reserved/, allowedBy: '198.51.100.0/24' },
  { address: '203.0.113.1', refusal: /reserved/, allowedBy: '203.0.113.0/24' },
  { address: '192.88.99.1', refusal: /reserved/, allowedBy: '192.88.99.0/24' },
  // IPv6
  { address: '::1', refusal: /loopback/, allowedBy: '::1/128' },
  { address: '::', refusal: /unspecified/, allowedBy: '::/128' },
  { address: 'fc00::1', refusal: /uniqueLocal/, allowedBy: 'fc00::/7' },
  { address: 'fd12:3456::1', refusal: /uniqueLocal/, allowedBy: 'fc00::/7' },
  { address: 'fe80::1', refusal: /linkLocal/, allowedBy: 'fe80::/10' },
  { address: 'fe80::1%1', refusal: /linkLocal/, allowedBy: 'fe80::/10' },
  { address: 'febf::1', refusal: /linkLocal/, allowedBy: 'fe80::/10' },
  { address: 'fec0::1', refusal: /deprecatedSiteLocal/, allowedBy: 'fec0::/10' },
  { address: 'ff02::1', refusal: /multicast/, allowedBy: 'ff00::/8' },
  { address: 'ff0e::1', refusal: /multicast/, allowedBy: 'ff00::/8' },
  { address: '2001:db8::1', refusal: /reserved/, allowedBy: '2001:db8::/32' },
  { address: '2001:2::1', refusal: /benchmarking/, allowedBy: '2001:2::/48' },
  { address: '2001:0:4136:e378::1', refusal: /teredo/, allowedBy: '2001::/32' },
  { address: '100::1', refusal: /discard/, allowedBy: '100::/64' },
  { address: '64:ff9b:1::a00:1', refusal: /rfc6052/, allowedBy: '64:ff9b:1::/48' },
  // IPv4-compatible (deprecated) and unallocated space outside 2000::/3.
  { address: '::7f00:1', refusal: /reserved/, allowedBy: '::/96' },
  { address: '4000::1', refusal: /reserved/, allowedBy: '4000::/2' },
  // IPv6 carrying an IPv4 address: judged as that address.
  {
    address: '::ffff:127.0.0.1',
    refusal: /IPv4-mapped address of 127\.0\.0\.1, a loopback/,
    allowedBy: '127.0.0.1/32',
  },
  {
    address: '::ffff:7f00:1',
    refusal: /IPv4-mapped address of 127\.0\.0\.1, a loopback/,
    allowedBy: '127.0.0.0/8',
  },
  {
    address: '::ffff:10.0.0.1',
    refusal: /IPv4-mapped address of 10\.0\.0\.1, a private/,
    allowedBy: '10.0.0.0/8',
  },
  { address: '::ffff:169.254.169.254', refusal: /linkLocal/, allowedBy: '::ffff:169.254.0.0/112' },
  { address: '::ffff:0.0.0.0', refusal: /unspecified/, allowedBy: '0.0.0.0/8' },
  {
    address: '64:ff9b::7f00:1',
    refusal: /NAT64 address of 127\.0\.0\.1, a loopback/,
    allowedBy: '127.0.0.0/8',
  },
  {
    address: '64:ff9b::10.1.2.3',
    refusal: /NAT64 address of 10\.1\.2\.3, a private/,
    allowedBy: '64:ff9b::/96',
  },
  {
    address: '64:ff9b::a9fe:a9fe',
    refusal: /NAT64 address of 169\.254\.169\.254, a linkLocal/,
    allowedBy: '169.254.0.0/16',
  },
  {
    address: '2002:7f00:1::1',
    refusal: /6to4 address of 127\.0\.0\.1, a loopback/,
    allowedBy: '127.0.0.0/8',
  },
  {
    address: '2002:c0a8:101::',
    refusal: /6to4 address of 192\.168\.1\.1, a private/,
    allowedBy: '2002::/16',
  },
  {
    address: '2002:a9fe:a9fe::1',
    refusal: /6to4 address of 169\.254\.169\.254/,
    allowedBy: '169.254.0.0/16',
  },
];

const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '100.63.255.255', // just below carrier-grade NAT
  '100.128.0.0', // just above
  '172.15.255.255', // just below 172.16/12
  '172.32.0.0', // just above
  '169.253.255.255',
  '223.255.255.255', // just below multicast
  '198.20.0.1', // just above benchmarking
  '2001:4860:4860::8888',
  '2606:4700:4700::1111',
  '2a00:1450:4001::1',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808', // NAT64 (DNS64) of 8.8.8.8
  '64:ff9b::93.184.216.34',
  '2002:808:808::1', // 6to4 of 8.8.8.8
];

const NOT_ADDRESSES = [
  'localhost',
  '',
  '127.1',
  '0x7f.0.0.1',
  '010.0.0.1',
  '2130706433',
  '[::1]',
  '1.2.3.4.5',
];

describe('address table', () => {
  const strict = new AddressPolicy(false);
  const open = new AddressPolicy(true);

  for (const { address, refusal, allowedBy } of REFUSED) {
    test(`${address} is refused by default, allowed by true and by ${allowedBy}`, () => {
      const reason = strict.refusalOf(address);
      assert.ok(reason !== undefined, `${address} was allowed`);
      assert.match(reason, refusal);
      assert.match(reason, new RegExp(`^${address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is an? `));
      assert.match(reason, /private networks are not allowed$/);
      assert.equal(open.refusalOf(address), undefined);
      assert.equal(new AddressPolicy([allowedBy]).refusalOf(address), undefined);
    });
  }

  for (const address of PUBLIC) {
    test(`the public address ${address} is allowed`, () => {
      assert.equal(strict.refusalOf(address), undefined);
      assert.equal(new AddressPolicy(['10.0.0.0/8']).refusalOf(address), undefined);
    });
  }

  for (const text of NOT_ADDRESSES) {
    test(`"${text}" is no address a socket connects to, so it is refused`, () => {
      assert.match(strict.refusalOf(text) ?? '', /is not an IP address/);
    });
  }

  test('a CIDR list allows its ranges only, in addition to the public ones', () => {
    const some = new AddressPolicy(['127.0.0.2/32', '10.1.0.0/16', 'fd00::/8']);
    const cases: [string, boolean][] = [
      ['127.0.0.2', true],
      ['::ffff:127.0.0.2', true],
      ['64:ff9b::7f00:2', true],
      ['127.0.0.1', false],
      ['::ffff:127.0.0.1', false],
      ['10.1.255.1', true],
      ['10.2.0.1', false],
      ['fd00::1', true],
      ['fc00::1', false],
      ['::1', false],
      ['169.254.169.254', false],
      ['8.8.8.8', true],
    ];
    for (const [address, allowed] of cases) {
      assert.equal(some.refusalOf(address) === undefined, allowed, address);
    }
  });

  test('an IPv4-mapped CIDR is the IPv4 range it maps', () => {
    const mapped = new AddressPolicy(['::ffff:192.168.0.0/112']);
    assert.equal(mapped.refusalOf('192.168.3.4'), undefined);
    assert.equal(mapped.refusalOf('::ffff:192.168.3.4'), undefined);
    assert.ok(mapped.refusalOf('192.169.0.1') === undefined, 'public anyway');
    assert.ok(mapped.refusalOf('10.0.0.1') !== undefined);
  });

  test('a CIDR that does not parse is refused when the policy is made', () => {
    assert.throws(
      () => new AddressPolicy(['999.0.0.0/8']),
      /KUMO_ALLOW_PRIVATE_NETWORKS: "999\.0\.0\.0\/8" is not a CIDR range/,
    );
  });
});
