/** The URL rules of a run: seed hosts, patterns, file kinds, and the length cap that protects pattern matching. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CrawlScope, MAX_URL_CHARS } from '../../src/crawler/scope.js';
import { resolveCrawlSettings } from '../../src/domain/crawl-settings.js';

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
