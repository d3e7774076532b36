/**
 * Sitemap files as sites write them (docs/reference/crawl-rules.md, Sitemaps): XML url sets and
 * indexes (namespaced, with entities and CDATA), text sitemaps, the protocol's 50,000-entry limit,
 * and files that are no sitemap at all.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_SITEMAP_ENTRIES, NotASitemapError, parseSitemap } from '../../src/crawler/sitemap-parse.js';

describe('parseSitemap', () => {
  test('a url set gives each loc with its lastmod; a malformed lastmod is dropped, a bad loc counted', () => {
    const parsed = parseSitemap(
      '\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
        '  <url><loc> https://example.com/a?x=1&amp;y=2 </loc><lastmod>2026-11-01</lastmod>' +
        '<changefreq>daily</changefreq></url>\n' +
        '  <url><loc><![CDATA[https://example.com/b]]></loc><lastmod>2026-11-02T10:00:00+09:00</lastmod></url>\n' +
        '  <url><loc>https://example.com/c</loc><lastmod>last tuesday</lastmod></url>\n' +
        '  <url><loc>/relative</loc></url>\n' +
        '  <url><lastmod>2026-11-01</lastmod></url>\n' +
        '  <url><loc>ftp://example.com/file</loc></url>\n' +
        '</urlset>',
    );
    assert.equal(parsed.kind, 'urlset');
    assert.deepEqual(parsed.entries, [
      { loc: 'https://example.com/a?x=1&y=2', lastmod: '2026-11-01' },
      { loc: 'https://example.com/b', lastmod: '2026-11-02T10:00:00+09:00' },
      { loc: 'https://example.com/c', lastmod: null },
    ]);
    assert.equal(parsed.invalid, 3);
    assert.equal(parsed.overLimit, 0);
  });

  test('a sitemap index lists its child sitemaps, with a namespace prefix too', () => {
    const parsed = parseSitemap(
      '<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">' +
        '<sm:sitemap><sm:loc>https://example.com/s1.xml.gz</sm:loc><sm:lastmod>2026-10-01</sm:lastmod></sm:sitemap>' +
        '<sm:sitemap><sm:loc>https://example.com/s2.xml</sm:loc></sm:sitemap>' +
        '</sm:sitemapindex>',
    );
    assert.equal(parsed.kind, 'index');
    assert.deepEqual(
      parsed.entries.map((entry) => entry.loc),
      ['https://example.com/s1.xml.gz', 'https://example.com/s2.xml'],
    );
    assert.equal(parsed.entries[0]!.lastmod, '2026-10-01');
  });

  test('a text sitemap is one URL per line; lines that are not URLs are counted', () => {
    const parsed = parseSitemap('https://example.com/\r\nhttps://example.com/docs/\n\nnot a url\n');
    assert.equal(parsed.kind, 'text');
    assert.deepEqual(
      parsed.entries.map((entry) => entry.loc),
      ['https://example.com/', 'https://example.com/docs/'],
    );
    assert.equal(parsed.invalid, 1);
  });

  test(`a file listing more than ${MAX_SITEMAP_ENTRIES} URLs gives the first ${MAX_SITEMAP_ENTRIES}`, () => {
    const urls = Array.from(
      { length: MAX_SITEMAP_ENTRIES + 3 },
      (_, index) => `<url><loc>https://example.com/${index}</loc></url>`,
    );
    const parsed = parseSitemap(`<urlset>${urls.join('')}</urlset>`);
    assert.equal(parsed.entries.length, MAX_SITEMAP_ENTRIES);
    assert.equal(parsed.entries.at(-1)!.loc, `https://example.com/${MAX_SITEMAP_ENTRIES - 1}`);
    assert.equal(parsed.overLimit, 3);
  });

  test('an HTML page, an RSS feed or binary data is no sitemap, and the error says what it is', () => {
    const thrown = (text: string) => {
      try {
        parseSitemap(text);
      } catch (error) {
        assert.ok(error instanceof NotASitemapError);
        return error.message;
      }
      assert.fail('parsed');
    };
    assert.equal(
      thrown('<!doctype html><html><body>Not found</body></html>'),
      'root element <html>, not <urlset> or <sitemapindex>',
    );
    assert.equal(
      thrown('<rss version="2.0"><channel></channel></rss>'),
      'root element <rss>, not <urlset> or <sitemapindex>',
    );
    assert.equal(thrown('\u0000\u0001garbage\u0002'), 'neither XML nor a list of URLs');
  });

  test('an empty url set is a sitemap with no entries', () => {
    assert.deepEqual(parseSitemap('<urlset></urlset>'), {
      kind: 'urlset',
      entries: [],
      overLimit: 0,
      invalid: 0,
    });
  });
});
