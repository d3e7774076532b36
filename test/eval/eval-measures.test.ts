import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SnippetTally, holdsQueryWord, queryWordsOf } from '../../bench/eval/snippet-quality.js';
import { prefixOf, rankAmong, suggestFiguresOf } from '../../bench/eval/suggest-quality.js';
import {
  TemplateMatcher,
  containsWord,
  templateBlocksOf,
  templateRunsOf,
  textBlocksOf,
} from '../../bench/eval/template-blocks.js';

/** A page shaped like the PostgreSQL manual's: navigation table, content, navigation footer. */
function manualPage(title: string, parent: string, content: string): string {
  return `<!DOCTYPE html><html><head><title>${title}</title><style>p { color: red }</style></head><body>
    <div class="navheader"><table><tr><th colspan="5">${title}</th></tr>
    <tr><td><a accesskey="p" href="a.html">Prev</a> </td><td><a accesskey="u" href="b.html">Up</a></td>
    <th>${parent}</th><td><a accesskey="h" href="index.html">Home</a></td>
    <td><a accesskey="n" href="c.html">Next</a></td></tr></table></div>
    <div class="sect1"><h2>${title}</h2><h3>Description</h3><p>${content} with <code>inline</code> code.</p></div>
    <script>var skipped = 1;</script></body></html>`;
}

describe('template blocks', () => {
  test('blocks break at block elements, not at inline ones, and skip scripts and styles', () => {
    assert.deepEqual(textBlocksOf(manualPage('CREATE INDEX', 'SQL Commands', 'Builds an index')), [
      'create index',
      'prev',
      'up',
      'sql commands',
      'home',
      'next',
      'create index',
      'description',
      'builds an index with inline code.',
    ]);
  });

  test('a block is template when it is on at least the given share of pages', () => {
    const pages = [
      manualPage('CREATE INDEX', 'SQL Commands', 'Builds an index'),
      manualPage('DROP INDEX', 'SQL Commands', 'Removes an index'),
      manualPage('Triggers', 'Server Programming', 'Fire on events'),
      manualPage('Indexes', 'The SQL Language', 'Speed up lookups'),
    ].map(textBlocksOf);
    assert.deepEqual([...templateBlocksOf(pages, 0.5)].sort(), [
      'description',
      'home',
      'next',
      'prev',
      'sql commands',
      'up',
    ]);
    assert.deepEqual([...templateBlocksOf(pages, 0.75)].sort(), [
      'description',
      'home',
      'next',
      'prev',
      'up',
    ]);
  });

  test('runs join neighbouring template blocks; a lone one-word label is not a run', () => {
    const template = new Set(['prev', 'up', 'home', 'next', 'description', 'table of contents']);
    const blocks = [
      'create index',
      'prev',
      'up',
      'sql commands',
      'home',
      'next',
      'create index',
      'description',
      'text',
    ];
    assert.deepEqual(templateRunsOf(blocks, template), ['prev up', 'home next']);
    assert.deepEqual(templateRunsOf(['x', 'table of contents', 'y'], template), ['table of contents']);
  });

  test('a snippet shows template text when it holds a whole run as words, or a long piece of one', () => {
    const matcher = new TemplateMatcher([
      'prev up',
      'home next',
      'モジュール | ディレクティブ | faq | 用語 | サイトマップ',
    ]);
    assert.equal(matcher.matches('create index prev up sql commands home next create index'), true);
    assert.equal(matcher.matches('when you set up the home directory, the next step'), false);
    assert.equal(matcher.matches('… ディレクティブ | faq | 用語 | サイトマップ apache http サーバ'), true);
    assert.equal(matcher.matches('モジュールとディレクティブの一覧'), false);
    assert.equal(new TemplateMatcher(['次へ 上へ']).matches('前へ次へ 上へホーム'), true);
  });

  test('a Latin run does not match inside a longer word', () => {
    assert.equal(containsWord('upgrade the server', 'up'), false);
    assert.equal(containsWord('set up.', 'up'), true);
    assert.equal(containsWord('up', 'up'), true);
    assert.equal(containsWord('前へ次へ', '次へ'), true);
  });
});

describe('snippet quality', () => {
  test('query words are the normalized words of the query with a letter or digit', () => {
    assert.deepEqual(queryWordsOf('  CREATE  Index "x" - '), ['create', 'index', 'x']);
    assert.deepEqual(queryWordsOf('ＡＢＣ　仮想ホスト'), ['abc', '仮想ホスト']);
    assert.equal(holdsQueryWord('Triggers fire on events', queryWordsOf('trigger')), true);
    assert.equal(holdsQueryWord('Rules rewrite queries', queryWordsOf('trigger')), false);
  });

  test('shares count every shown result of every query', () => {
    const matcher = new TemplateMatcher(['prev up']);
    const tally = new SnippetTally(() => matcher);
    tally.add('index', [
      { url: 'a', snippet: 'Prev Up SQL Commands', description: 'Prev Up SQL Commands Home' },
      { url: 'b', snippet: 'An index speeds up lookups', description: 'An index' },
    ]);
    tally.add('vacuum', [{ url: 'c', snippet: 'VACUUM reclaims storage', description: 'Prev Up' }]);
    const figures = tally.figures();
    assert.equal(figures.snippets, 3);
    assert.equal(figures.templateShare, 1 / 3);
    assert.equal(figures.queryWordShare, 2 / 3);
    assert.equal(figures.descriptionTemplateShare, 2 / 3);
  });
});

describe('suggest quality', () => {
  test('a prefix is the first code points of the normalized query, when the query is longer', () => {
    assert.equal(prefixOf('CREATE INDEX', 3), 'cre');
    assert.equal(prefixOf('仮想ホスト', 2), '仮想');
    assert.equal(prefixOf('ssl', 3), undefined);
  });

  test('the rank of the query among the completions is compared normalized, in the top 10', () => {
    assert.equal(rankAmong('Create Index', ['create information', 'create into', 'create  index']), 3);
    assert.equal(rankAmong('vacuum', ['value', 'values']), undefined);
    const eleventh = [...Array.from({ length: 10 }, (_, i) => `word${i}`), 'target'];
    assert.equal(rankAmong('target', eleventh), undefined);
  });

  test('figures per prefix length: mean reciprocal rank and share in the top 10', () => {
    const completions: Record<string, string[]> = {
      se: ['see', 'set', 'select'],
      sel: ['select'],
      sele: ['select'],
      ab: ['about'],
      abc: [],
    };
    const figures = suggestFiguresOf(['select', 'abcd'], (prefix) => completions[prefix] ?? []);
    assert.deepEqual(figures, [
      { prefixChars: 2, queries: 2, mrr: 1 / 6, top10Share: 0.5 },
      { prefixChars: 3, queries: 2, mrr: 0.5, top10Share: 0.5 },
      { prefixChars: 4, queries: 1, mrr: 1, top10Share: 1 },
    ]);
  });
});
