/**
 * Folder of a crawled URL inside crawl_objects.tar.gz (docs/reference/artifacts.md, Folder rules):
 * `<scheme>/<host>/<path>-/<encoded_query_fragment>-/`, the query and fragment encoded like
 * encodeURIComponent, and no entry able to escape the archive root.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { MAX_FOLDER_BYTES, objectFolderOf } from '../../src/artifacts/folder-path.js';

describe('objectFolderOf', () => {
  const cases: { name: string; url: string; folder: string }[] = [
    { name: 'site root', url: 'https://example.com/', folder: 'https/example.com/-/-/' },
    { name: 'site root without slash', url: 'https://example.com', folder: 'https/example.com/-/-/' },
    { name: 'http scheme', url: 'http://example.com/a.html', folder: 'http/example.com/a.html-/-/' },
    {
      name: 'file in a folder',
      url: 'https://example.com/docs/a.html',
      folder: 'https/example.com/docs/a.html-/-/',
    },
    { name: 'trailing slash kept', url: 'https://example.com/docs/', folder: 'https/example.com/docs/-/-/' },
    {
      name: 'query',
      url: 'https://example.com/docs/a.html?x=1',
      folder: 'https/example.com/docs/a.html-/%3Fx%3D1-/',
    },
    {
      name: 'query with several parameters (order as in the URL)',
      url: 'https://example.com/s?b=2&a=1',
      folder: 'https/example.com/s-/%3Fb%3D2%26a%3D1-/',
    },
    { name: 'fragment', url: 'https://example.com/page#top', folder: 'https/example.com/page-/%23top-/' },
    {
      name: 'query and fragment',
      url: 'https://example.com/app/?id=7#/view/1',
      folder: 'https/example.com/app/-/%3Fid%3D7%23%2Fview%2F1-/',
    },
    {
      name: 'query with a slash cannot add a folder level',
      url: 'https://example.com/r?next=/a/b',
      folder: 'https/example.com/r-/%3Fnext%3D%2Fa%2Fb-/',
    },
    {
      name: 'non-ASCII path stays percent-encoded',
      url: 'https://example.com/日本/ページ.html',
      folder: 'https/example.com/%E6%97%A5%E6%9C%AC/%E3%83%9A%E3%83%BC%E3%82%B8.html-/-/',
    },
    {
      name: 'encoded slash stays one segment',
      url: 'https://example.com/a%2Fb/c',
      folder: 'https/example.com/a%2Fb/c-/-/',
    },
    { name: 'non-default port kept', url: 'http://127.0.0.1:8080/a', folder: 'http/127.0.0.1:8080/a-/-/' },
    { name: 'default port dropped', url: 'https://example.com:443/a', folder: 'https/example.com/a-/-/' },
    { name: 'host lower-cased', url: 'https://EXAMPLE.com/A', folder: 'https/example.com/A-/-/' },
    { name: 'IPv6 host', url: 'http://[::1]:3000/', folder: 'http/[::1]:3000/-/-/' },
    {
      name: '.. segments resolved by the URL parser',
      url: 'https://example.com/a/../b/./c',
      folder: 'https/example.com/b/c-/-/',
    },
    {
      name: 'encoded dot segments resolved by the URL parser',
      url: 'https://example.com/a/%2e%2e/%2E%2e/b/.%2E/c',
      folder: 'https/example.com/c-/-/',
    },
    {
      name: '.. above the root stays at the root',
      url: 'https://example.com/../../etc/passwd',
      folder: 'https/example.com/etc/passwd-/-/',
    },
    {
      name: 'dots inside a name are kept',
      url: 'https://example.com/a..b/...',
      folder: 'https/example.com/a..b/...-/-/',
    },
  ];
  for (const { name, url, folder } of cases) {
    test(name, () => {
      assert.equal(objectFolderOf(new URL(url)), folder);
    });
  }

  test('a pathname holding raw dot segments is written encoded', () => {
    // The WHATWG parser never leaves `.` or `..` segments in an http(s) path; the guard is for a
    // URL-like value that bypassed it.
    const url = {
      protocol: 'https:',
      host: 'example.com',
      pathname: '/a/../../b/./c',
      search: '?q=1',
      hash: '',
    } as URL;
    assert.equal(objectFolderOf(url), 'https/example.com/a/%2E%2E/%2E%2E/b/%2E/c-/%3Fq%3D1-/');
  });

  const hostile = [
    'https://example.com/a/%2e%2e/%2e%2e/%2e%2e/x',
    'https://example.com/..%2f..%2fx',
    'https://example.com/%2E%2E%5C%2E%2E%5Cx',
    'https://example.com/a\\..\\..\\x',
    'https://example.com/?../../x#../..',
    'https://example.com/x?q=..%2F..%2F',
  ];
  for (const raw of hostile) {
    test(`no entry segment escapes the root: ${raw}`, () => {
      const folder = objectFolderOf(new URL(raw));
      assert.ok(!folder.startsWith('/'), folder);
      assert.ok(folder.endsWith('-/'), folder);
      const segments = folder.split('/');
      for (const segment of segments) {
        assert.notEqual(segment, '..', `${folder} has a .. segment`);
        assert.notEqual(segment, '.', `${folder} has a . segment`);
      }
      // Scheme, host, at least one path segment, the `-` after the path and the query part.
      assert.ok(segments.length >= 4, folder);
      assert.equal(segments[0], 'https');
      assert.equal(segments[1], 'example.com');
    });
  }

  test('the query and fragment part equals encodeURIComponent of search + hash', () => {
    const url = new URL("https://example.com/p?a=b c&d=é!'()*#frag ment");
    const folder = objectFolderOf(url);
    assert.equal(folder, `https/example.com/p-/${encodeURIComponent(`${url.search}${url.hash}`)}-/`);
  });

  const escapes: { name: string; url: string; folder: string }[] = [
    {
      name: 'an inner segment ending in - gets {} (a page cannot open a folder inside another page folder)',
      url: 'https://example.com/p-/-/source.html/x',
      folder: 'https/example.com/p-{}/-{}/source.html/x-/-/',
    },
    {
      name: 'an empty inner segment is written {}',
      url: 'https://example.com//a',
      folder: 'https/example.com/{}/a-/-/',
    },
    {
      name: 'empty segment in the middle',
      url: 'https://example.com/a//b/',
      folder: 'https/example.com/a/{}/b/-/-/',
    },
    {
      name: 'a last segment ending in - is left as it is',
      url: 'https://example.com/a-',
      folder: 'https/example.com/a--/-/',
    },
    {
      name: 'an encoded dash is not a dash',
      url: 'https://example.com/p%2D/x',
      folder: 'https/example.com/p%2D/x-/-/',
    },
  ];
  for (const { name, url, folder } of escapes) {
    test(name, () => {
      assert.equal(objectFolderOf(new URL(url)), folder);
    });
  }

  test('a path segment over 200 bytes is cut to 200 bytes plus {hash}', () => {
    const long = 'a'.repeat(300);
    const folder = objectFolderOf(new URL(`https://example.com/${long}/x.html`));
    const hash = createHash('sha256').update(long).digest('hex').slice(0, 16);
    assert.equal(folder, `https/example.com/${'a'.repeat(200)}{${hash}}/x.html-/-/`);
    const last = objectFolderOf(new URL(`https://example.com/${long}`));
    assert.equal(last, `https/example.com/${'a'.repeat(200)}{${hash}}-/-/`);
  });

  test('a query over 200 bytes (encoded) is cut the same way', () => {
    const url = new URL(`https://example.com/s?q=${'x'.repeat(250)}`);
    const encoded = encodeURIComponent(url.search);
    const hash = createHash('sha256').update(encoded).digest('hex').slice(0, 16);
    assert.equal(objectFolderOf(url), `https/example.com/s-/${encoded.slice(0, 200)}{${hash}}-/`);
  });

  test('a segment of exactly 200 bytes is left whole', () => {
    const name = 'b'.repeat(200);
    assert.equal(objectFolderOf(new URL(`https://example.com/${name}`)), `https/example.com/${name}-/-/`);
  });

  test('a folder over the limit keeps the inner segments that fit and ends in {hash}-/-/', () => {
    const url = new URL(`https://example.com/${'abc/'.repeat(400)}end.html?x=1`);
    const folder = objectFolderOf(url);
    const hash = createHash('sha256')
      .update(`${url.pathname}${url.search}${url.hash}`)
      .digest('hex')
      .slice(0, 16);
    assert.ok(folder.length <= MAX_FOLDER_BYTES, `${folder.length} bytes`);
    assert.match(folder, /^https\/example\.com\/(abc\/)+\{[0-9a-f]{16}\}-\/-\/$/);
    assert.ok(folder.endsWith(`/{${hash}}-/-/`), folder);
    assert.ok(folder.length > MAX_FOLDER_BYTES - 4, 'as many segments as fit are kept');
  });
});
