/**
 * When a sitemap's lastmod lets a scheduled re-crawl keep a page without a request
 * (docs/reference/crawl-rules.md, Conditional re-crawls).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lastmodMicrosOf, skipsRequest } from '../../src/crawler/lastmod-skip.js';
import { resolveCrawlSettings } from '../../src/domain/index.js';
import { validateCrawlSetting } from '../../src/domain/schemas.js';
import { parseQueryDatetime } from '../../src/util/index.js';

const NOW = parseQueryDatetime('2026-11-20T12:00:00.000000+09:00')!;
/** The previous run's crawl time of the page, as meta.json writes it: two days before NOW. */
const CONFIRMED = '2026-11-18T12:00:00.123456+09:00';

describe('sitemap lastmod skip', () => {
  test('sitemap_lastmod_skip_days: 0 to 365 days, 0 (never) by default', () => {
    const seed_urls = ['https://www.example.com/'];
    for (const days of [0, 30, 365, null])
      assert.deepEqual(
        validateCrawlSetting({ seed_urls, sitemap_lastmod_skip_days: days }),
        [],
        String(days),
      );
    for (const days of [-1, 366, 2.5]) {
      const errors = validateCrawlSetting({ seed_urls, sitemap_lastmod_skip_days: days });
      assert.deepEqual(
        errors.map((error) => error.field),
        ['setting.sitemap_lastmod_skip_days'],
        String(days),
      );
    }
    assert.equal(resolveCrawlSettings({ seed_urls }).sitemapLastmodSkipDays, 0);
    assert.equal(resolveCrawlSettings({ seed_urls, sitemap_lastmod_skip_days: 7 }).sitemapLastmodSkipDays, 7);
  });

  test('a lastmod names an instant with a time and a zone, or a day ending last at UTC-12', () => {
    assert.equal(lastmodMicrosOf('2026-11-17T10:00Z'), parseQueryDatetime('2026-11-17T10:00:00Z'));
    assert.equal(
      lastmodMicrosOf('2026-11-17T10:00:30.5+09:00'),
      parseQueryDatetime('2026-11-17T10:00:30.5+09:00'),
    );
    assert.equal(lastmodMicrosOf('2026-11-17'), parseQueryDatetime('2026-11-18T12:00:00Z'));
    assert.equal(lastmodMicrosOf('2026-02-30'), undefined);
    for (const unzoned of ['2026', '2026-11-17T10:00:00', '2026-13-01T00:00Z', 'soon'])
      assert.equal(lastmodMicrosOf(unzoned), undefined, unzoned);
  });

  test('skips only a lastmod before a copy confirmed within the days', () => {
    assert.equal(skipsRequest('2026-11-01T00:00:00Z', CONFIRMED, 7, NOW), true);
    // Changed after the copy was confirmed.
    assert.equal(skipsRequest('2026-11-19T00:00:00Z', CONFIRMED, 7, NOW), false);
    // The copy is older than the days allow.
    assert.equal(skipsRequest('2026-11-01T00:00:00Z', CONFIRMED, 1, NOW), false);
    // 0 never skips.
    assert.equal(skipsRequest('2026-11-01T00:00:00Z', CONFIRMED, 0, NOW), false);
    // A day counts until it has ended everywhere: 2026-11-17 ends at 2026-11-18T12:00Z,
    // after the copy was confirmed (03:00Z that day).
    assert.equal(skipsRequest('2026-11-16', CONFIRMED, 7, NOW), true);
    assert.equal(skipsRequest('2026-11-17', CONFIRMED, 7, NOW), false);
    // A lastmod in the future, no lastmod or no stored time: the page is fetched.
    assert.equal(skipsRequest('2026-11-01T10:00:00', CONFIRMED, 7, NOW), false);
    assert.equal(skipsRequest('2027-01-01T00:00:00Z', CONFIRMED, 7, NOW), false);
    assert.equal(skipsRequest(null, CONFIRMED, 7, NOW), false);
    assert.equal(skipsRequest('2026-11-01T00:00:00Z', undefined, 7, NOW), false);
  });
});
