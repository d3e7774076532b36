/**
 * The URL rules of a run: seed hosts on the seed's port, patterns, file kinds, and the length cap
 * that protects pattern matching; where credentials go.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CredentialRules } from '../../src/crawler/credential-rules.js';
import { CrawlScope, MAX_URL_CHARS } from '../../src/crawler/scope.js';
import { resolveCrawlSettings } from '../../src/domain/index.js';

const scope = (setting: Record<string, unknown>) =>
  new CrawlScope(resolveCrawlSettings({ seed_urls: ['https://www.example.com/'], ...setting }));

test('URLs longer than the cap are out of scope before any pattern runs', () => {
  const base = 'https://www.example.com/';
  const longest = new URL(`${base}${'a'.repeat(MAX_URL_CHARS - base.length)}`);
  const tooLong = new URL(`${longest.href}b`);
  assert.equal(longest.href.length, MAX_URL_CHARS);
  assert.equal(scope({}).check(longest), undefined);
  assert.equal(scope({}).check(tooLong), 'too_long');
  // A pattern that would take long on a long URL is never run on one over the cap.
  const patterned = scope({ allow_urls_patterns: ['^https://www\\.example\\.com/.*\\.html$'] });
  const started = performance.now();
  for (let i = 0; i < 100; i++) assert.equal(patterned.check(tooLong), 'too_long');
  assert.ok(performance.now() - started < 200);
});

test('seed hosts, subdomains, deny over allow, and file kinds', () => {
  const cases: [Record<string, unknown>, string, string | undefined][] = [
    [{}, 'https://www.example.com/a', undefined],
    [{}, 'https://docs.www.example.com/a', undefined],
    [{}, 'https://example.org/a', 'not_allowed'],
    [{ deny_urls_patterns: ['/private/'] }, 'https://www.example.com/private/a', 'denied'],
    [{ allow_urls_patterns: ['example\\.org'] }, 'https://example.org/a', undefined],
    [{}, 'https://www.example.com/a.pdf', 'file_type'],
    [{ crawl_file: { pdf: 1 } }, 'https://www.example.com/a.pdf', undefined],
  ];
  for (const [setting, url, reason] of cases) assert.equal(scope(setting).check(new URL(url)), reason, url);
});

test('the default scope is the seed host on the seed port; http and https of a site are one site', () => {
  const cases: [string, string, string | undefined][] = [
    // Another port of the seed's host is another site (another server on the machine).
    ['http://127.0.0.1:8001/', 'http://127.0.0.1:8001/a', undefined],
    ['http://127.0.0.1:8001/', 'http://127.0.0.1:18084/', 'not_allowed'],
    ['http://127.0.0.1:8001/', 'http://127.0.0.1/', 'not_allowed'],
    ['http://127.0.0.1:8001/', 'https://127.0.0.1:8001/a', undefined],
    // The scheme may differ: 80 and 443 count as the one default port.
    ['https://www.example.com/', 'http://www.example.com/a', undefined],
    ['http://www.example.com/', 'https://www.example.com/a', undefined],
    ['http://www.example.com/', 'https://www.example.com:443/a', undefined],
    ['https://www.example.com/', 'http://www.example.com:80/a', undefined],
    ['http://www.example.com:443/', 'http://www.example.com/a', undefined],
    ['https://www.example.com/', 'https://www.example.com:8443/a', 'not_allowed'],
    ['https://www.example.com:8443/', 'https://www.example.com/a', 'not_allowed'],
    ['https://www.example.com:8443/', 'http://www.example.com:8443/a', undefined],
    // Subdomains are in scope on the seed's port only.
    ['https://www.example.com/', 'http://docs.www.example.com/a', undefined],
    ['https://www.example.com/', 'https://docs.www.example.com:8080/a', 'not_allowed'],
    ['https://www.example.com:8080/', 'https://docs.www.example.com:8080/a', undefined],
  ];
  for (const [seed, url, reason] of cases) {
    const seeded = new CrawlScope(resolveCrawlSettings({ seed_urls: [seed] }));
    assert.equal(seeded.check(new URL(url)), reason, `${url} from seed ${seed}`);
  }
});

test('each seed brings its own host and port', () => {
  const seeded = new CrawlScope(
    resolveCrawlSettings({ seed_urls: ['http://127.0.0.1:8001/', 'http://localhost:9000/'] }),
  );
  assert.equal(seeded.check(new URL('http://127.0.0.1:8001/a')), undefined);
  assert.equal(seeded.check(new URL('http://localhost:9000/a')), undefined);
  assert.equal(seeded.check(new URL('http://127.0.0.1:9000/a')), 'not_allowed');
  assert.equal(seeded.check(new URL('http://localhost:8001/a')), 'not_allowed');
});

test('allow patterns replace the site rule: any port they match is in scope', () => {
  const patterned = scope({ allow_urls_patterns: ['^https?://www\\.example\\.com(:\\d+)?/'] });
  assert.equal(patterned.check(new URL('https://www.example.com:8443/a')), undefined);
});

test('credentials go to the seed host on its port, never to plain http of an https seed, another port or a subdomain', () => {
  const rules = (seed: string) =>
    new CredentialRules(
      resolveCrawlSettings({ seed_urls: [seed], authorizations: [{ user: 'kumo', password: 's3cret' }] }),
    );
  const basic = `Basic ${Buffer.from('kumo:s3cret').toString('base64')}`;
  const cases: [string, string, string | undefined][] = [
    ['http://127.0.0.1:8001/', 'http://127.0.0.1:8001/a', basic],
    ['http://127.0.0.1:8001/', 'http://127.0.0.1:18084/a', undefined],
    ['http://127.0.0.1:8001/', 'http://127.0.0.1/a', undefined],
    ['https://www.example.com/', 'http://www.example.com/a', undefined],
    ['http://www.example.com/', 'https://www.example.com/a', basic],
    ['https://www.example.com/', 'https://www.example.com/a', basic],
    ['http://www.example.com:443/', 'https://www.example.com/a', basic],
    ['https://www.example.com/', 'https://www.example.com:8443/a', undefined],
    ['https://www.example.com/', 'https://docs.www.example.com/a', undefined],
  ];
  for (const [seed, url, expected] of cases)
    assert.equal(rules(seed).authorizationFor(new URL(url)), expected, `${url} from seed ${seed}`);
});
