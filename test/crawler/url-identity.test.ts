/**
 * URL identity (docs/reference/crawl-rules.md, URL identity; docs/reference/crawl-settings.md,
 * request_fingerprint): scheme and host lower-cased, default port removed, percent-encoding
 * normalized, empty path `/`, query parameters sorted (or dropped), fragment dropped unless
 * keep_fragment is 1.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  fetchUrlOf,
  fingerprintOf,
  type IdentityRules,
  identityOf,
  parseCrawlUrl,
} from '../../src/crawler/url-identity.js';

const DEFAULT_RULES: IdentityRules = { keepQuery: true, keepFragment: false };

describe('parseCrawlUrl', () => {
  const cases: { name: string; raw: string; base?: string; href: string }[] = [
    { name: 'empty path becomes /', raw: 'http://example.com', href: 'http://example.com/' },
    { name: 'scheme and host lower-cased', raw: 'HTTP://Example.COM/Path', href: 'http://example.com/Path' },
    { name: 'default http port removed', raw: 'http://example.com:80/a', href: 'http://example.com/a' },
    { name: 'default https port removed', raw: 'https://example.com:443/a', href: 'https://example.com/a' },
    { name: 'other port kept', raw: 'http://example.com:8080/a', href: 'http://example.com:8080/a' },
    { name: 'https on port 80 kept', raw: 'https://example.com:80/', href: 'https://example.com:80/' },
    { name: 'dot segments resolved', raw: 'http://example.com/a/./b/../c', href: 'http://example.com/a/c' },
    {
      name: 'unreserved escapes decoded in the path',
      raw: 'http://example.com/%7Euser/%41%62%63-%2E_',
      href: 'http://example.com/~user/Abc-._',
    },
    {
      name: 'reserved escapes upper-cased, not decoded',
      raw: 'http://example.com/a%2fb%3f',
      href: 'http://example.com/a%2Fb%3F',
    },
    {
      name: 'non-ASCII path percent-encoded with upper-case hex',
      raw: 'http://example.com/%e6%97%a5/日本',
      href: 'http://example.com/%E6%97%A5/%E6%97%A5%E6%9C%AC',
    },
    {
      name: 'query escapes normalized the same way',
      raw: 'http://example.com/s?q=%41%2b%3d&x=%7e',
      href: 'http://example.com/s?q=A%2B%3D&x=~',
    },
    { name: 'IDN host to punycode', raw: 'http://Bücher.example/', href: 'http://xn--bcher-kva.example/' },
    {
      name: 'fragment kept by the parser',
      raw: 'http://example.com/a#Top',
      href: 'http://example.com/a#Top',
    },
    {
      name: 'relative reference resolved against a base',
      raw: '../c?x=1',
      base: 'http://example.com/a/b/index.html',
      href: 'http://example.com/a/c?x=1',
    },
    {
      name: 'protocol-relative reference takes the base scheme',
      raw: '//Other.example/p',
      base: 'https://example.com/',
      href: 'https://other.example/p',
    },
  ];
  for (const { name, raw, base, href } of cases) {
    test(name, () => {
      assert.equal(parseCrawlUrl(raw, base)?.href, href);
    });
  }

  const rejected = [
    'mailto:x@example.com',
    'javascript:void(0)',
    'tel:+81-3-0000-0000',
    'data:text/html,hi',
    'ftp://example.com/file',
    'not a url',
    '',
    'http://',
  ];
  for (const raw of rejected) {
    test(`rejects ${JSON.stringify(raw)}`, () => {
      assert.equal(parseCrawlUrl(raw), undefined);
    });
  }

  test('a relative reference without a base is rejected', () => {
    assert.equal(parseCrawlUrl('/a.html'), undefined);
  });
});

describe('identityOf', () => {
  const cases: { name: string; raw: string; rules?: Partial<IdentityRules>; identity: string }[] = [
    { name: 'plain URL', raw: 'http://example.com/a', identity: 'http://example.com/a' },
    { name: 'empty path', raw: 'http://EXAMPLE.com', identity: 'http://example.com/' },
    { name: 'default port dropped', raw: 'https://example.com:443/', identity: 'https://example.com/' },
    { name: 'other port kept', raw: 'http://example.com:8080/', identity: 'http://example.com:8080/' },
    { name: 'query sorted', raw: 'http://example.com/q?b=2&a=1', identity: 'http://example.com/q?a=1&b=2' },
    {
      name: 'repeated names sorted by value',
      raw: 'http://example.com/q?a=2&a=1',
      identity: 'http://example.com/q?a=1&a=2',
    },
    {
      name: 'empty pairs dropped',
      raw: 'http://example.com/q?a=1&&b=2&',
      identity: 'http://example.com/q?a=1&b=2',
    },
    { name: 'lone ? ignored', raw: 'http://example.com/q?', identity: 'http://example.com/q' },
    {
      name: 'keep_query 0 drops the query',
      raw: 'http://example.com/q?b=2&a=1',
      rules: { keepQuery: false },
      identity: 'http://example.com/q',
    },
    {
      name: 'keep_fragment 0 drops the fragment',
      raw: 'http://example.com/f#one',
      identity: 'http://example.com/f',
    },
    {
      name: 'keep_fragment 1 keeps the fragment',
      raw: 'http://example.com/f#one',
      rules: { keepFragment: true },
      identity: 'http://example.com/f#one',
    },
    {
      name: 'keep_fragment 1 with a sorted query',
      raw: 'http://example.com/f?b=1&a=2#/route',
      rules: { keepFragment: true },
      identity: 'http://example.com/f?a=2&b=1#/route',
    },
    {
      name: 'percent-encoding normalized',
      raw: 'http://example.com/%7efoo?x=%2f',
      identity: 'http://example.com/~foo?x=%2F',
    },
  ];
  for (const { name, raw, rules, identity } of cases) {
    test(name, () => {
      const url = parseCrawlUrl(raw);
      assert.ok(url, `${raw} parses`);
      assert.equal(identityOf(url, { ...DEFAULT_RULES, ...rules }), identity);
    });
  }

  const sameUrl: { name: string; a: string; b: string; rules?: Partial<IdentityRules> }[] = [
    { name: 'query order', a: 'http://example.com/q?a=1&b=2', b: 'http://example.com/q?b=2&a=1' },
    {
      name: 'query order with similar names',
      a: 'http://example.com/q?a1=x&a=y&a=z',
      b: 'http://example.com/q?a=z&a=y&a1=x',
    },
    { name: 'host case and default port', a: 'http://EXAMPLE.com:80/x', b: 'http://example.com/x' },
    { name: 'escape case', a: 'http://example.com/a%2fb', b: 'http://example.com/a%2Fb' },
    { name: 'escaped unreserved', a: 'http://example.com/%61', b: 'http://example.com/a' },
    { name: 'fragments with keep_fragment 0', a: 'http://example.com/f#one', b: 'http://example.com/f#two' },
    {
      name: 'different queries with keep_query 0',
      a: 'http://example.com/q?x=1',
      b: 'http://example.com/q?x=2',
      rules: { keepQuery: false },
    },
  ];
  for (const { name, a, b, rules } of sameUrl) {
    test(`one URL: ${name}`, () => {
      const all = { ...DEFAULT_RULES, ...rules };
      assert.equal(identityOf(parseCrawlUrl(a)!, all), identityOf(parseCrawlUrl(b)!, all));
    });
  }

  const differentUrls: { name: string; a: string; b: string; rules?: Partial<IdentityRules> }[] = [
    { name: 'different query values', a: 'http://example.com/q?x=1', b: 'http://example.com/q?x=2' },
    { name: 'scheme', a: 'http://example.com/', b: 'https://example.com/' },
    { name: 'port', a: 'http://example.com/', b: 'http://example.com:8080/' },
    { name: 'path case', a: 'http://example.com/A', b: 'http://example.com/a' },
    { name: 'trailing slash', a: 'http://example.com/a', b: 'http://example.com/a/' },
    { name: 'encoded slash', a: 'http://example.com/a%2Fb', b: 'http://example.com/a/b' },
    {
      name: 'fragments with keep_fragment 1',
      a: 'http://example.com/f#one',
      b: 'http://example.com/f#two',
      rules: { keepFragment: true },
    },
  ];
  for (const { name, a, b, rules } of differentUrls) {
    test(`two URLs: ${name}`, () => {
      const all = { ...DEFAULT_RULES, ...rules };
      assert.notEqual(identityOf(parseCrawlUrl(a)!, all), identityOf(parseCrawlUrl(b)!, all));
    });
  }
});

describe('fingerprintOf', () => {
  test('is 16 bytes and deterministic', () => {
    const first = fingerprintOf('http://example.com/');
    assert.equal(first.length, 16);
    assert.deepEqual(fingerprintOf('http://example.com/'), first);
  });

  test('differs for different identities', () => {
    const identities = [
      'http://example.com/',
      'http://example.com/a',
      'https://example.com/',
      'http://example.com/?a=1',
    ];
    const keys = new Set(identities.map((identity) => fingerprintOf(identity).toString('hex')));
    assert.equal(keys.size, identities.length);
  });

  test('equal for URLs of one identity', () => {
    const a = identityOf(parseCrawlUrl('HTTP://example.com:80/q?b=2&a=1#x')!, DEFAULT_RULES);
    const b = identityOf(parseCrawlUrl('http://example.com/q?a=1&b=2')!, DEFAULT_RULES);
    assert.deepEqual(fingerprintOf(a), fingerprintOf(b));
  });
});

describe('fetchUrlOf', () => {
  const cases: { raw: string; fetched: string }[] = [
    { raw: 'http://example.com/a', fetched: 'http://example.com/a' },
    { raw: 'http://example.com/a#frag', fetched: 'http://example.com/a' },
    { raw: 'http://example.com/a?b=2&a=1#frag', fetched: 'http://example.com/a?b=2&a=1' },
    { raw: 'http://example.com/#/spa/route?x=1', fetched: 'http://example.com/' },
    // An empty fragment is still a fragment: the `#` must not be part of the request URL.
    { raw: 'http://example.com/a#', fetched: 'http://example.com/a' },
  ];
  for (const { raw, fetched } of cases) {
    test(`${raw} is fetched as ${fetched}`, () => {
      const url = parseCrawlUrl(raw);
      assert.ok(url);
      assert.equal(fetchUrlOf(url), fetched);
    });
  }

  test('keeps the query in its original order (only identity sorts it)', () => {
    assert.equal(fetchUrlOf(new URL('http://example.com/q?z=1&a=2')), 'http://example.com/q?z=1&a=2');
  });
});
