/** Which addresses the crawler may reach, table-driven over the ranges that matter for SSRF. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AddressPolicy } from '../../src/net/address-policy.js';

const REFUSED_BY_DEFAULT: [string, RegExp][] = [
  ['127.0.0.1', /loopback/],
  ['127.5.6.7', /loopback/],
  ['::1', /loopback/],
  ['::ffff:127.0.0.1', /loopback/],
  ['10.0.0.1', /private/],
  ['172.16.5.4', /private/],
  ['192.168.1.1', /private/],
  ['169.254.169.254', /linkLocal/],
  ['fe80::1', /linkLocal/],
  ['fc00::1', /uniqueLocal/],
  ['100.64.0.1', /carrierGradeNat/],
  ['0.0.0.0', /unspecified/],
  ['::', /unspecified/],
  ['224.0.0.1', /multicast/],
  ['ff02::1', /multicast/],
  ['255.255.255.255', /broadcast/],
  ['::ffff:10.0.0.1', /private/],
];
const PUBLIC = ['8.8.8.8', '93.184.216.34', '2001:4860:4860::8888', '::ffff:8.8.8.8'];

describe('AddressPolicy', () => {
  const strict = new AddressPolicy(false);

  for (const [address, range] of REFUSED_BY_DEFAULT) {
    test(`refuses ${address} by default`, () => {
      const refusal = strict.refusalOf(address);
      assert.ok(refusal !== undefined, `${address} was allowed`);
      assert.match(refusal, range);
      assert.match(refusal, /private networks are not allowed/);
    });
  }

  for (const address of PUBLIC) {
    test(`allows the public address ${address}`, () => {
      assert.equal(strict.refusalOf(address), undefined);
    });
  }

  test('true allows every address', () => {
    const open = new AddressPolicy(true);
    for (const [address] of REFUSED_BY_DEFAULT) assert.equal(open.refusalOf(address), undefined, address);
  });

  test('a CIDR list opens exactly those ranges, IPv4-mapped IPv6 included', () => {
    const some = new AddressPolicy(['127.0.0.1/32', '10.1.0.0/16', 'fd00::/8']);
    assert.equal(some.refusalOf('127.0.0.1'), undefined);
    assert.equal(some.refusalOf('::ffff:127.0.0.1'), undefined);
    assert.equal(some.refusalOf('10.1.200.3'), undefined);
    assert.equal(some.refusalOf('fd12::1'), undefined);
    assert.match(some.refusalOf('127.0.0.2') ?? '', /loopback/);
    assert.match(some.refusalOf('10.2.0.1') ?? '', /private/);
    assert.match(some.refusalOf('169.254.169.254') ?? '', /linkLocal/);
  });

  test('a host name is judged on every address it resolves to', async () => {
    assert.match((await strict.refusalOfHost('localhost')) ?? '', /^localhost resolves to .*loopback/);
    assert.match((await strict.refusalOfHost('[::1]')) ?? '', /loopback/);
    assert.equal(await new AddressPolicy(['127.0.0.0/8', '::1/128']).refusalOfHost('localhost'), undefined);
    assert.match(
      (await strict.refusalOfHost('no-such-host.invalid')) ?? '',
      /cannot resolve no-such-host\.invalid/,
    );
  });
});
