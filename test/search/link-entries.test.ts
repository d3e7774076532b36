/**
 * Link entries (docs/reference/site-search.md, Listing pages): the text of a page that only
 * points at other pages leaves its headings and body for the links field (stored with the
 * template text), so a table of contents, an index, a glossary or an archive does not outrank
 * the pages it lists; a page's own text, its own contents and links inside sentences stay.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pageTextOf } from '../../src/search/html-text.js';
import { linkTargetOf } from '../../src/search/link-entries.js';

const PAGE = 'https://docs.example/manual/chapter.html';

function page(main: string): string {
  return `<html><head><title>T</title></head><body><main>${main}</main></body></html>`;
}

describe('where a link points', () => {
  test('another page, a place on this page, or no page', () => {
    assert.equal(linkTargetOf('other.html#x', PAGE), 'elsewhere');
    assert.equal(linkTargetOf('/manual/other.html', PAGE), 'elsewhere');
    assert.equal(linkTargetOf('#section', PAGE), 'here');
    assert.equal(linkTargetOf('chapter.html#section', PAGE), 'here');
    assert.equal(linkTargetOf('https://docs.example/manual/chapter.html', PAGE), 'here');
    assert.equal(linkTargetOf('mailto:help@docs.example', PAGE), 'none');
    assert.equal(linkTargetOf('javascript:void(0)', PAGE), 'none');
    // Without the page's URL only a bare fragment is known to be this page.
    assert.equal(linkTargetOf('chapter.html#section', undefined), 'elsewhere');
  });
});

describe('entries that only point at other pages', () => {
  test("a table of contents' entries and a linked heading leave the headings and the body", () => {
    const text = pageTextOf(
      page(
        '<h1>Chapter 11. Indexes</h1><p>Indexes speed up queries.</p>' +
          '<dl class="toc"><dt><a href="indexes-intro.html">11.1. Introduction</a></dt>' +
          '<dt><a href="indexes-types.html">11.2. Index Types</a></dt></dl>' +
          '<h2><a href="indexes-partial.html">Partial indexes</a></h2>',
      ),
      {},
      PAGE,
    );
    assert.equal(text.headings, 'Chapter 11. Indexes');
    assert.equal(text.body, 'Chapter 11. Indexes\nIndexes speed up queries.');
    assert.equal(text.template, '11.1. Introduction\n11.2. Index Types\nPartial indexes');
  });

  test("the page's own contents (links to its sections) and links inside sentences stay its text", () => {
    const text = pageTextOf(
      page(
        '<h1>Chapter</h1><ul><li><a href="#setup">Setup</a></li><li><a href="chapter.html#use">Use</a></li></ul>' +
          '<p>See <a href="other.html">the other chapter</a> for more.</p>' +
          '<ul><li><a href="other.html">Other</a> explains the rest of the setup in detail.</li></ul>',
      ),
      {},
      PAGE,
    );
    assert.equal(
      text.body,
      'Chapter\nSetup\nUse\nSee the other chapter for more.\nOther explains the rest of the setup in detail.',
    );
    assert.equal(text.template, '');
  });

  test('numbering and punctuation beside the link do not make an entry its own text', () => {
    const text = pageTextOf(
      page('<p>Intro text.</p><ul><li>1. <a href="a.html">Alpha</a> (3)</li></ul>'),
      {},
      PAGE,
    );
    assert.equal(text.body, 'Intro text.');
    assert.equal(text.template, '1. Alpha (3)');
  });
});

describe('listing pages', () => {
  /** A back-of-the-book index in the DocBook style: a term, then links to the sections treating it. */
  function bookIndex(terms: number): string {
    const entries = Array.from(
      { length: terms },
      (_, index) =>
        `<dt>term${index} configuration parameter, <a class="indexterm" href="page${index}.html#s">Section ${index}</a></dt>`,
    );
    return page(
      `<h1>Index</h1><h3>A</h3><dl><dt>archive settings</dt><dd><dl>${entries.join('')}</dl></dd></dl>`,
    );
  }

  test("an index's terms beside their links, and its terms holding only sub-entries, are link entries", () => {
    const text = pageTextOf(bookIndex(30), {}, PAGE);
    assert.equal(text.headings, 'Index\nA');
    assert.equal(text.body, 'Index\nA');
    assert.ok(text.template.startsWith('archive settings\nterm0 configuration parameter, Section 0\n'));
  });

  test('a glossary of short definitions, each linking the page that explains its term', () => {
    const entries = ['蒸らし', 'タンパー', '逆洗浄', '湯垢', '焙煎度'].map(
      (term, index) =>
        `<dt>${term}</dt><dd>短い説明の文です。 <a href="ja/page${index}.html#s">解説ページ</a></dd>`,
    );
    const text = pageTextOf(page(`<h1>用語集</h1><dl>${entries.join('')}</dl>`), {}, PAGE);
    assert.equal(text.headings, '用語集');
    assert.equal(text.body, '用語集');
    assert.ok(text.template.startsWith('蒸らし\n短い説明の文です。 解説ページ\nタンパー'));
  });

  test('a reference page whose definitions link their types, beside its prose, is no listing', () => {
    const definitions = Array.from(
      { length: 6 },
      (_, index) =>
        `<dt><a href="types.html#PyObject">PyObject</a> *PyDescr_New${index}(<a href="types.html#t">PyTypeObject</a> *type)</dt>` +
        `<dd>Return a new descriptor of the type; the caller owns the reference and must release it when done.</dd>`,
    );
    const text = pageTextOf(page(`<h1>Descriptor Objects</h1><dl>${definitions.join('')}</dl>`), {}, PAGE);
    assert.equal(text.headings.split('\n').length, 7);
    assert.ok(text.headings.includes('PyObject *PyDescr_New3(PyTypeObject *type)'));
    assert.equal(text.template, '');
  });

  test('fewer than five short entries holding links make no listing page', () => {
    const entries = ['a', 'b', 'c', 'd'].map(
      (name) => `<dt>term ${name}, <a href="${name}.html">Page</a></dt>`,
    );
    const text = pageTextOf(page(`<dl>${entries.join('')}</dl>`), {}, PAGE);
    assert.equal(text.template, '');
    assert.equal(text.headings, 'term a, Page\nterm b, Page\nterm c, Page\nterm d, Page');
  });
});

describe('teasers', () => {
  const ARCHIVE = 'https://docs.example/blog/archive.html';
  const teaser = (slug: string, title: string, excerpt: string) =>
    `<article><h2><a href="/blog/${slug}.html">${title}</a></h2><p>${excerpt}</p>` +
    `<a href="/blog/${slug}.html">Read more</a></article>`;

  test("an archive's articles under linked titles are link entries whole, excerpts included", () => {
    const text = pageTextOf(
      page(
        '<h1>Archive</h1>' +
          teaser('light-roasts', 'Light roasts', 'Notes of bergamot and jasmine.') +
          teaser('decaf', 'Decaf', 'Solvents and water.'),
      ),
      {},
      ARCHIVE,
    );
    assert.equal(text.body, 'Archive');
    assert.equal(text.headings, 'Archive');
    assert.equal(
      text.template,
      'Light roasts\nNotes of bergamot and jasmine.\nRead more\nDecaf\nSolvents and water.\nRead more',
    );
  });

  test('teasers inside an article of the archive, and cards whose link holds the heading, are teasers', () => {
    const card = (slug: string, title: string, excerpt: string) =>
      `<article><a href="/blog/${slug}.html"><h2>${title}</h2></a><p>${excerpt}</p></article>`;
    const text = pageTextOf(
      page(
        '<article><h1>Archive</h1>' +
          teaser('light-roasts', 'Light roasts', 'Notes of bergamot.') +
          card('decaf', 'Decaf', 'Solvents and water.') +
          '</article>',
      ),
      {},
      ARCHIVE,
    );
    assert.equal(text.body, 'Archive');
    assert.equal(text.template, 'Light roasts\nNotes of bergamot.\nRead more\nDecaf\nSolvents and water.');
  });

  test("a post whose heading links its permalink written another way is the page's own text", () => {
    const text = pageTextOf(
      `<html><head><title>My post</title></head><body><nav><a href="/">Home</a></nav><main>` +
        '<article><h1><a href="/blog/post?ref=feed">My post</a></h1><p>Notes of bergamot.</p></article>' +
        '</main><footer>Copyright</footer></body></html>',
      {},
      'https://docs.example/blog/post',
    );
    assert.equal(text.body, 'Notes of bergamot.');
    assert.equal(text.template, 'Home\nMy post\nCopyright');
  });

  test('an article whose heading links to itself is the page, not a teaser', () => {
    const url = 'https://docs.example/blog/light-roasts.html';
    const text = pageTextOf(
      page(`<article><h1><a href="${url}">Light roasts</a></h1><p>Notes of bergamot.</p></article>`),
      {},
      url,
    );
    assert.equal(text.body, 'Light roasts\nNotes of bergamot.');
    assert.equal(text.headings, 'Light roasts');
  });
});

test('a main text that is nothing but link entries keeps them as its text, its template apart', () => {
  const text = pageTextOf(
    '<html><body><nav><a href="/">Home</a></nav><main><ul><li><a href="a.html">Alpha</a></li>' +
      '<li><a href="b.html">Beta</a></li></ul></main></body></html>',
    {},
    PAGE,
  );
  assert.equal(text.body, 'Alpha\nBeta');
  assert.equal(text.template, 'Home');
});

test('a page that is nothing but links keeps them as its text, so it stays findable', () => {
  const text = pageTextOf(
    '<html><body><ul><li><a href="a.html">Alpha</a></li><li><a href="b.html">Beta</a></li></ul></body></html>',
    {},
    PAGE,
  );
  assert.equal(text.body, 'Alpha\nBeta');
});
