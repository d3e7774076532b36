/**
 * The folder rule of crawl_objects.tar.gz (docs/reference/artifacts.md, Folder rules) is
 * injective and prefix-free over generated URLs, adversarial ones included (segments named like
 * the property files, trailing dashes, percent-escapes, dot segments, very long segments,
 * unicode, queries and fragments): two URLs never share a folder, no entry is a folder of another
 * entry (else tar cannot extract the archive), and every name fits common file systems.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { MAX_FOLDER_BYTES, objectFolderOf } from '../../src/artifacts/folder-path.js';

const FILES = ['source.html', 'dom.html', 'meta.json', 'cap_org.jpg', 'source.pdf', 'source.xlsx'];

const TOKENS = [
  ...FILES,
  'p',
  'P',
  '-',
  '--',
  'p-',
  'p--',
  '',
  '%2D',
  '%2d',
  '{}',
  '%7B%7D',
  '.',
  '..',
  '%2e',
  '%2E%2E',
  '~',
  'a b',
  '日本',
  'é',
  '%C3%A9',
  '?',
  '#',
];

const longSegment = fc
  .tuple(fc.constantFrom('a', 'b', '-', '%', 'é', '{'), fc.integer({ min: 190, max: 320 }))
  .map(([char, count]) => char.repeat(count));

const segment = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...TOKENS) },
  {
    weight: 2,
    arbitrary: fc.array(fc.constantFrom(...TOKENS), { maxLength: 3 }).map((parts) => parts.join('')),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: longSegment },
);

const queryPart = fc.oneof(
  fc.constant(''),
  fc.constantFrom('?', '?x=1', '?-', '?q=source.html', '#', '#-', '?a=1#/b/-/', '?%2D'),
  longSegment.map((text) => `?q=${text}`),
);

/** A crawled URL (as the WHATWG parser leaves it), or null when the raw text is no URL. */
const crawledUrl = fc
  .record({
    scheme: fc.constantFrom('http', 'https'),
    host: fc.constantFrom('example.com', '127.0.0.1:8080', 'EXAMPLE.com'),
    segments: fc.array(segment, { maxLength: 6 }),
    deep: fc.nat({ max: 3 }),
    query: queryPart,
  })
  .map(({ scheme, host, segments, deep, query }) => {
    // Now and then a path long enough to pass the folder limit.
    const path = deep === 3 ? [...segments, ...Array.from({ length: 120 }, () => 'seg-')] : segments;
    return new URL(`${scheme}://${host}/${path.join('/')}${query}`);
  });

/** What the folder is a function of: the URL without user name and password. */
function keyOf(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}${url.search}${url.hash}`;
}

function checkNames(folder: string): void {
  assert.ok(Buffer.byteLength(folder) <= MAX_FOLDER_BYTES, `${Buffer.byteLength(folder)} bytes: ${folder}`);
  assert.ok(folder.endsWith('-/'), folder);
  const names = folder.slice(0, -1).split('/');
  for (const name of names) {
    assert.ok(name !== '' && name !== '.' && name !== '..', `bad name ${JSON.stringify(name)} in ${folder}`);
    assert.ok(Buffer.byteLength(name) + 12 <= 255, `name of ${Buffer.byteLength(name)} bytes in ${folder}`);
    assert.ok(!name.includes('\\') && !name.includes('\u0000'), folder);
  }
}

/** No entry is a folder on the way to another entry; folded to lower case too (case-insensitive disks). */
function assertPrefixFree(entries: readonly string[]): void {
  for (const fold of [(text: string) => text, (text: string) => text.toLowerCase()]) {
    const files = new Set(entries.map(fold));
    for (const entry of files) {
      const parts = entry.split('/');
      for (let depth = 1; depth < parts.length; depth++) {
        const folder = parts.slice(0, depth).join('/');
        assert.ok(!files.has(folder), `${folder} is both a file and a folder (${entry})`);
      }
    }
  }
}

test('two crawled URLs never share a folder, and no entry sits on the path of another', () => {
  fc.assert(
    fc.property(fc.array(crawledUrl, { minLength: 2, maxLength: 40 }), (urls) => {
      const byFolder = new Map<string, string>();
      const entries: string[] = [];
      for (const url of urls) {
        const folder = objectFolderOf(url);
        checkNames(folder);
        const key = keyOf(url);
        const other = byFolder.get(folder);
        assert.ok(other === undefined || other === key, `${key} and ${other} share ${folder}`);
        byFolder.set(folder, key);
        for (const file of FILES) entries.push(`${folder}${file}`);
      }
      assertPrefixFree(entries);
      // A page's folder holds only its own files: no folder is inside another.
      const folders = [...byFolder.keys()];
      for (const a of folders) {
        for (const b of folders) assert.ok(a === b || !b.startsWith(a), `${b} is inside ${a}`);
      }
    }),
    { numRuns: 1500, seed: 20261123 },
  );
});

test('a page linking below another page file name gets a folder of its own', () => {
  const base = objectFolderOf(new URL('https://example.com/p'));
  const entries: string[] = [];
  for (const file of FILES) {
    const below = objectFolderOf(new URL(`https://example.com/p-/-/${file}/x`));
    assert.notEqual(below, base);
    entries.push(`${base}${file}`, `${below}${file}`);
  }
  assertPrefixFree(entries);
});
