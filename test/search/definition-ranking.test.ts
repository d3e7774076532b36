/**
 * Pages that define the query against pages that only use it, shaped like real documentation
 * (docs/design/search-engine.md, Search engine): a module reference defining dozens of directives
 * in its headings, and a manual whose pages are titled with the one word they document.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SearchIndex } from '../../src/search/search-index.js';
import { type ManualPage, manualDocument, otherManualPages } from '../support/manual-pages.js';
import { rankedSearch } from '../support/ranked-search.js';

let folder: string;
before(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-definition-ranking-'));
});
after(() => rmSync(folder, { recursive: true, force: true }));

const urlOf = (slug: string) => `https://manual.example/docs/${slug}.html`;
const ranked = (index: SearchIndex, query: string) =>
  rankedSearch(index, query, 10).docs.map((doc) => doc.url);

function indexOf(name: string, pages: readonly ManualPage[]): SearchIndex {
  const index = new SearchIndex(path.join(folder, `${name}.db`));
  index.writer.upsert(pages.map(manualDocument), 'bundle:test');
  return index;
}

/** Directive names of a server's core module reference, each one heading of the page. */
const DIRECTIVES = Array.from({ length: 90 }, (_, n) => `Directive${n}`);

describe('a reference page defining many subjects in its headings', () => {
  let index: SearchIndex;
  before(() => {
    const headings = [...DIRECTIVES.slice(0, 45), 'KeepAlive', ...DIRECTIVES.slice(45)]
      .map((name) => `${name} Directive`)
      .join(' ');
    index = indexOf('reference', [
      {
        // Counts of the real core module page: 90 directives, 6,000 words, the directive 18 times.
        slug: 'mod-core',
        title: 'core - HTTP Server Version 2.4',
        headings: `Core Features ${headings}`,
        bodyWords: 6000,
        mentions: [{ text: 'KeepAlive', times: 18 }],
      },
      {
        slug: 'env',
        title: 'Environment Variables - HTTP Server Version 2.4',
        headings: 'Environment Variables Setting Environment Variables Special Purpose Variables Examples',
        bodyWords: 800,
        mentions: [{ text: 'KeepAlive', times: 7 }],
      },
      ...otherManualPages(40),
    ]);
  });
  after(() => index.close());

  test('ranks above a shorter page that uses the subject, the heading not diluted by the others', () => {
    assert.equal(ranked(index, 'KeepAlive')[0], urlOf('mod-core'));
  });
});

describe('a page titled with the one word it documents', () => {
  let index: SearchIndex;
  before(() => {
    // Counts of the real pages of a Japanese manual: ずらし (shift) and ずらしマップ (displace map).
    index = indexOf('title-word', [
      {
        slug: 'filter-shift',
        title: '5.11. ずらし...',
        headings: '5.11. ずらし... 5.11.1. 概観 5.11.2. フィルターの呼び出し方 5.11.3. オプション ずらし...',
        bodyWords: 105,
        mentions: [{ text: 'ずらし', times: 8 }],
      },
      {
        slug: 'filter-displace',
        title: '13.3. ずらしマップ...',
        headings:
          '13.3. ずらしマップ... 13.3.1. 概観 13.3.2. フィルターの呼び出し方 13.3.3. オプション ずらしモード ' +
          '13.3.3.1. 直交座標ずらしモード 13.3.3.2. 極座標ずらしモード',
        bodyWords: 896,
        mentions: [
          { text: 'ずらしマップ', times: 12 },
          { text: 'ずらし', times: 11 },
        ],
      },
      {
        slug: 'commit',
        title: 'COMMIT',
        headings: 'COMMIT Synopsis Description Parameters Notes Examples Compatibility See Also',
        bodyWords: 300,
        mentions: [{ text: 'commit', times: 8 }],
      },
      {
        slug: 'wal-async-commit',
        title: '30.4. Asynchronous Commit',
        headings: '30.4. Asynchronous Commit',
        bodyWords: 1100,
        mentions: [
          { text: 'commit', times: 20 },
          { text: 'asynchronous commit', times: 14 },
        ],
      },
      ...otherManualPages(40),
    ]);
  });
  after(() => index.close());

  test('ranks above a page whose title holds the word inside a longer name', () => {
    assert.equal(ranked(index, 'ずらし')[0], urlOf('filter-shift'));
    assert.equal(ranked(index, 'commit')[0], urlOf('commit'));
  });
});

describe('a code identifier', () => {
  let index: SearchIndex;
  before(() => {
    // Both pages list it among their definition terms: one as the instruction FORMAT_VALUE, the
    // other as the function format(value, format_spec).
    index = indexOf('identifier', [
      {
        slug: 'library-dis',
        title: 'dis — Disassembler for Python bytecode',
        headings:
          'dis — Disassembler for Python bytecode Bytecode analysis BUILD_STRING(count) FORMAT_VALUE(flags) MAKE_FUNCTION(flags)',
        bodyWords: 4500,
        mentions: [{ text: 'FORMAT_VALUE', times: 1 }],
      },
      {
        slug: 'library-functions',
        title: 'Built-in Functions',
        headings: 'Built-in Functions float(x) format(value, format_spec) frozenset(iterable)',
        bodyWords: 4500,
        mentions: [{ text: 'format(value, format_spec)', times: 1 }],
      },
      ...otherManualPages(40),
    ]);
  });
  after(() => index.close());

  test('ranks the page naming it above a page where its words only follow each other', () => {
    assert.deepEqual(ranked(index, 'FORMAT_VALUE').slice(0, 2), [
      urlOf('library-dis'),
      urlOf('library-functions'),
    ]);
  });
});
