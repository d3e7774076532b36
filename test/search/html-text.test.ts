/** Searchable text of a page: what a reader sees, not scripts or styles. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pageTextOf } from '../../src/search/html-text.js';

test('title, meta description and visible body text; scripts, styles and head left out', () => {
  const text = pageTextOf(
    '<html><head><title> Kumo &amp; search </title><meta name="description" content="A  crawler">' +
      '<style>p{color:red}</style></head><body><h1>Hello</h1><p>world&nbsp;here</p>' +
      '<script>var hidden = 1;</script><noscript>enable js</noscript><div>日本語</div></body></html>',
  );
  assert.equal(text.title, 'Kumo & search');
  assert.equal(text.description, 'A crawler');
  assert.equal(text.body, 'Hello\nworld here\n日本語');
  assert.equal(text.noindex, false);
});

test('without a meta description, the description is empty (the API shows the start of the main text)', () => {
  const text = pageTextOf(`<title>t</title><p>${'あ'.repeat(300)}</p>`);
  assert.equal(text.description, '');
});

test('meta robots noindex is reported', () => {
  assert.equal(pageTextOf('<meta name="robots" content="NOINDEX, follow"><p>x</p>').noindex, true);
});

test('headings and definition terms are kept one a line, so suggest never joins two of them', () => {
  const text = pageTextOf(
    '<html><body><h1>CREATE\n  INDEX</h1><p>Text.</p><h2>See <code>Also</code></h2><dl><dt>work_mem (integer)</dt><dd>x</dd></dl></body></html>',
  );
  assert.equal(text.headings, 'CREATE INDEX\nSee Also\nwork_mem (integer)');
});

test('the pages a page links to are named as the crawler names them, each once, never itself', () => {
  const text = pageTextOf(
    '<p><a href="../guide/proxy.html#top">a</a> <a href="/guide/proxy.html">b</a>' +
      ' <a href="HTTP://Example.COM:80/%7euser/">c</a> <a href="#top">d</a> <a href="page.html?x">e</a>' +
      ' <a href="mailto:x@example.com">f</a> <a href="javascript:void(0)">g</a> <a>h</a>' +
      '<map><area href="/map.html"></map></p>',
    {},
    'http://example.com/docs/page.html?x',
  );
  assert.deepEqual(text.linksTo, [
    'http://example.com/guide/proxy.html',
    'http://example.com/~user/',
    'http://example.com/map.html',
  ]);
  // Without the page's URL no link can be resolved.
  assert.deepEqual(pageTextOf('<a href="/x.html">x</a>').linksTo, []);
});
