/**
 * The language a page declares, as indexing reads it (docs/reference/site-search.md, Pages with
 * the same text): `<html lang>` first, else a `hreflang` alternate naming the page itself.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pageTextOf } from '../../src/search/html-text.js';

const URL_OF_PAGE = 'https://www.example.com/en/guide.html';
const languageOf = (head: string, html = '<html>') =>
  pageTextOf(`${html}<head>${head}</head><body><p>text</p></body></html>`, {}, URL_OF_PAGE).language;

describe('the declared language of a page', () => {
  test('is the html element’s lang, lowercased, an underscore read as a hyphen', () => {
    assert.equal(languageOf('', '<html lang="en_US">'), 'en-us');
    assert.equal(languageOf('', '<html xml:lang="da">'), 'da');
    // The html element wins over an alternate naming the page.
    assert.equal(
      languageOf(`<link rel="alternate" hreflang="de" href="${URL_OF_PAGE}">`, '<html lang="ja">'),
      'ja',
    );
  });

  test('is else the hreflang of an alternate naming the page itself, not another version', () => {
    assert.equal(
      languageOf(
        '<link rel="alternate" hreflang="de" href="/de/guide.html"><link rel="alternate" hreflang="en" href="guide.html">',
      ),
      'en',
    );
    assert.equal(languageOf('<link rel="alternate" hreflang="x-default" href="guide.html">'), '');
    assert.equal(languageOf('', '<html lang="not a tag!">'), '');
    assert.equal(languageOf(''), '');
  });
});
