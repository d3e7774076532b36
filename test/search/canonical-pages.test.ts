/**
 * Which pages of a bundle give way to their canonical page (src/search/canonical-pages.ts;
 * docs/reference/crawl-rules.md, Canonical pages), from pages held as hashes of their URLs.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CanonicalPages } from '../../src/search/canonical-pages.js';

const SITE = 'https://docs.example';

function givingWay(
  pages: readonly (readonly [requested: string, url: string, canonical?: string])[],
): string[] {
  const canonical = new CanonicalPages();
  for (const [requested, url, named] of pages)
    canonical.add(SITE + requested, SITE + url, named === undefined ? undefined : SITE + named);
  return [...canonical.givingWay()].map((url) => url.slice(SITE.length)).sort();
}

test('a page gives way to a canonical page of the bundle, followed from page to page and through redirects', () => {
  assert.deepEqual(
    givingWay([
      ['/guide.html', '/guide.html'],
      // A print version names the guide.
      ['/print.html', '/print.html', '/guide.html'],
      // A chain: the old copy names the print version, which names the guide.
      ['/old.html', '/old.html', '/print.html'],
      // Names a URL that redirected to the guide.
      ['/mirror.html', '/mirror.html', '/start'],
      ['/start', '/guide.html'],
      // Its canonical page is not in the bundle: it stays.
      ['/orphan.html', '/orphan.html', '/gone.html'],
    ]),
    ['/mirror.html', '/old.html', '/print.html'],
  );
});

test('of pages naming each other in a circle, the shortest URL then the first in order stays', () => {
  assert.deepEqual(
    givingWay([
      ['/a-long.html', '/a-long.html', '/b.html'],
      ['/b.html', '/b.html', '/c.html'],
      ['/c.html', '/c.html', '/a-long.html'],
      // A page naming a member of the circle gives way too.
      ['/d.html', '/d.html', '/c.html'],
    ]),
    ['/a-long.html', '/c.html', '/d.html'],
  );
});

test('a chain longer than twenty pages is not followed: its pages stay documents', () => {
  const chain = Array.from(
    { length: 23 },
    (_, n) => [`/p${n}.html`, `/p${n}.html`, `/p${n + 1}.html`] as const,
  );
  const last = ['/p23.html', '/p23.html'] as const;
  const away = givingWay([...chain, last]);
  // Each page within twenty steps of the end reaches it; those farther do not.
  assert.ok(away.includes('/p22.html') && away.includes('/p3.html'));
  assert.ok(!away.includes('/p0.html') && !away.includes('/p2.html'));
});

test('a canonical URL that is a page of its own names that page, though another page was redirected from it', () => {
  assert.deepEqual(
    givingWay([
      ['/a', '/b'],
      ['/a', '/a', '/c'],
      ['/c', '/c', '/a'],
    ]),
    // /a and /c name each other: /a, first in order, stays.
    ['/c'],
  );
});
