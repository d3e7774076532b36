/**
 * Whatever a crawled URL contains (dot segments, encoded slashes and dots, backslashes, unicode,
 * control characters, ports, queries, fragments), its files' entry names in crawl_objects.tar.gz
 * stay inside the archive root: extracted with the usual rules, no entry leaves the folder it is
 * extracted into. Property-based over generated URLs.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { objectFolderOf } from '../../src/artifacts/folder-path.js';

const SEGMENT_PARTS = [
  '..',
  '.',
  '%2e%2e',
  '%2E',
  '%2f',
  '%5c',
  '\\',
  '..\\..',
  '/',
  '//',
  '~',
  'a',
  '日本',
  '%00',
  ' ',
];

const segment = fc.oneof(
  fc.constantFrom(...SEGMENT_PARTS),
  fc.string({ maxLength: 12 }),
  fc.array(fc.constantFrom(...SEGMENT_PARTS), { maxLength: 4 }).map((parts) => parts.join('')),
);

const crawledUrl = fc
  .record({
    scheme: fc.constantFrom('http', 'https'),
    host: fc.constantFrom('example.com', '127.0.0.1:8080', 'xn--wgv71a.jp', '[::1]:8443'),
    segments: fc.array(segment, { maxLength: 8 }),
    query: fc.option(fc.string({ maxLength: 20 })),
    fragment: fc.option(fc.string({ maxLength: 20 })),
  })
  .map(({ scheme, host, segments, query, fragment }) => {
    const raw = `${scheme}://${host}/${segments.join('/')}${query === null ? '' : `?${query}`}${fragment === null ? '' : `#${fragment}`}`;
    try {
      return new URL(raw);
    } catch {
      return new URL(`${scheme}://${host}/`);
    }
  });

test('no entry of a crawled page can leave the archive root', () => {
  const root = path.resolve('/extract/root');
  fc.assert(
    fc.property(
      crawledUrl,
      fc.constantFrom('source.html', 'meta.json', 'cap_org.jpg', 'dom.html'),
      (url, file) => {
        const entry = `${objectFolderOf(url)}${file}`;
        assert.ok(!entry.startsWith('/'), `absolute entry ${entry}`);
        assert.ok(!entry.includes('\\'), `backslash in ${entry}`);
        assert.ok(!entry.split('/').some((part) => part === '..' || part === '.'), `dot segment in ${entry}`);
        const extracted = path.resolve(root, entry);
        assert.ok(extracted.startsWith(`${root}${path.sep}`), `${entry} extracts to ${extracted}`);
      },
    ),
    { numRuns: 3000, seed: 20261123 },
  );
});
