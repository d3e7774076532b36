import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { APACHE_HTTPD_JA } from '../../bench/eval/apache-httpd-ja.js';
import {
  apacheDirectiveEntries,
  apacheGlossaryEntries,
  glossaryQueryText,
} from '../../bench/eval/apache-index.js';
import { comparisonLines } from '../../bench/eval/eval-compare.js';
import { parseFigures, type EvalFigures, type SetFigures } from '../../bench/eval/eval-figures.js';
import { parseEvalOptions } from '../../bench/eval/eval-options.js';
import { failuresOf } from '../../bench/eval/failure-list.js';
import { listingAboveOf } from '../../bench/eval/listing-above.js';
import { ownerSetting } from '../../bench/eval/site-crawl.js';
import { SiteUrls } from '../../bench/eval/site-urls.js';
import { POSTGRESQL_DOCS, postgresqlQueryText } from '../../bench/eval/postgresql-docs.js';

const BASE = 'https://httpd.apache.example/docs/2.4/ja/';

describe('Apache httpd manual judgments', () => {
  test('the directive index gives each directive and the module page defining it', () => {
    const html = `<div id="directive-list"><ul>
      <li><a href="core.html#acceptfilter" id="A" name="A">AcceptFilter</a></li>
      <li><a href="mod_actions.html#action">Action</a></li>
      <li><a href="core.html#directory">&lt;Directory&gt;</a></li></ul></div>
      <ul><li><a href="../index.html">not an entry</a></li></ul>`;
    assert.deepEqual(apacheDirectiveEntries(html, `${BASE}mod/directives.html`), [
      { term: 'AcceptFilter', pages: [`${BASE}mod/core.html`] },
      { term: 'Action', pages: [`${BASE}mod/mod_actions.html`] },
      { term: 'Directory', pages: [`${BASE}mod/core.html`] },
    ]);
  });

  test('the glossary gives each term with its see-also pages inside the manual', () => {
    const html = `<dl>
      <dt><a name="authentication" id="authentication">認証</a></dt>
      <dd>身元の特定。<br>参照: <a href="howto/auth.html">認証、承認、アクセス制御</a></dd>
      <dt><a name="csr">証明書署名リクエスト</a> <span class="transnote">(<em>訳注:</em> Certificate Signing Request)</span> <a name="csr2">(CSR)</a></dt>
      <dd><a class="glossarylink" href="./glossary.html#certificationauthority">認証局</a> に提出。<br>
      参照: <a href="ssl/index.html">SSL/TLS 暗号化</a></dd>
      <dt><a name="apr">Apache Portable Runtime</a> (APR)</dt>
      <dd>参照: <a href="http://apr.apache.org/">プロジェクト</a></dd>
      <dt><a name="algorithm">アルゴリズム</a></dt><dd>有限回のステップ。</dd></dl>`;
    assert.deepEqual(apacheGlossaryEntries(html, `${BASE}glossary.html`), [
      { term: '認証', pages: [`${BASE}howto/auth.html`] },
      { term: '証明書署名リクエスト', pages: [`${BASE}ssl/index.html`] },
    ]);
  });

  test('glossary terms lose their notes and abbreviations in parentheses', () => {
    assert.equal(glossaryQueryText('環境変数 (env-variable)'), '環境変数');
    assert.equal(glossaryQueryText('MIME タイプ'), 'MIME タイプ');
  });

  test('the set reads the directive index and the glossary, and leaves list pages out', () => {
    assert.deepEqual(APACHE_HTTPD_JA.indexFiles(''), ['mod/directives.html', 'glossary.html']);
    const glossary = '<dl><dt>認証</dt><dd><a href="howto/auth.html">x</a></dd></dl>';
    assert.deepEqual(APACHE_HTTPD_JA.parseIndex(glossary, `${BASE}glossary.html`), [
      { term: '認証', pages: [`${BASE}howto/auth.html`] },
    ]);
    for (const page of ['sitemap.html', 'mod/quickreference.html', 'mod/directives.html', 'glossary.html']) {
      assert.equal(APACHE_HTTPD_JA.isListing(page), true, page);
    }
    assert.equal(APACHE_HTTPD_JA.isListing('vhosts/name-based.html'), false);
  });
});

describe('PostgreSQL manual judgments', () => {
  test('index terms lose the qualifiers people do not type', () => {
    assert.equal(postgresqlQueryText('work_mem configuration parameter'), 'work_mem');
    assert.equal(postgresqlQueryText('fillfactor storage parameter'), 'fillfactor');
    assert.equal(postgresqlQueryText('box (data type)'), 'box');
    assert.equal(postgresqlQueryText('CREATE INDEX'), 'CREATE INDEX');
  });

  test('entries come from the DocBook index, sub-entries joining, links within the index dropped', () => {
    const base = 'https://docs.postgresql.example/15/';
    const html = `<div class="index"><div class="indexdiv"><h3>W</h3><dl>
      <dt>work_mem configuration parameter, <a class="indexterm" href="runtime-config-resource.html#GUC-WORK-MEM">Memory</a></dt>
      <dt>window function, <a href="tutorial-window.html">Window Functions</a></dt>
      <dd><dl><dt>built-in, <a href="functions-window.html">Window Functions</a></dt>
      <dt>order of evaluation, <a href="queries-table-expressions.html#X">Window Function Processing</a></dt></dl></dd>
      <dt>WAL, <em>see</em> <a href="bookindex.html#ientry-wal">write-ahead log</a></dt></dl></div></div>`;
    assert.deepEqual(POSTGRESQL_DOCS.parseIndex(html, `${base}bookindex.html`), [
      { term: 'work_mem', pages: [`${base}runtime-config-resource.html`] },
      {
        term: 'window function',
        pages: [
          `${base}tutorial-window.html`,
          `${base}functions-window.html`,
          `${base}queries-table-expressions.html`,
        ],
      },
    ]);
  });
});

describe('command line and comparison', () => {
  const sets = ['python', 'gimp', 'postgresql', 'apache'];

  test('options are parsed, and a bad one is named with the reason', () => {
    assert.deepEqual(parseEvalOptions([], sets), {});
    assert.deepEqual(parseEvalOptions(['--json', 'a.json', '--sets', 'python,apache'], sets), {
      json: 'a.json',
      sets: ['python', 'apache'],
    });
    assert.deepEqual(parseEvalOptions(['--compare', 'b.json', '--after', 'a.json'], sets), {
      compare: 'b.json',
      after: 'a.json',
    });
    assert.throws(() => parseEvalOptions(['--jsn', 'x'], sets), /unknown argument "--jsn"/);
    assert.throws(() => parseEvalOptions(['--json'], sets), /--json needs a value/);
    assert.throws(
      () => parseEvalOptions(['--sets', 'pythn'], sets),
      /--sets: unknown set "pythn"; known: python/,
    );
    assert.throws(() => parseEvalOptions(['--after', 'a.json'], sets), /--after needs --compare/);
    assert.deepEqual(parseEvalOptions(['--failures', 'f.json'], sets), { failures: 'f.json' });
    assert.deepEqual(parseEvalOptions(['--corpus', 'files'], sets), { corpus: 'files' });
    assert.throws(() => parseEvalOptions(['--corpus', 'disk'], sets), /--corpus: unknown corpus "disk"/);
    assert.throws(() => parseEvalOptions(['--failures'], sets), /--failures needs a value/);
  });

  test('the failures list each query without a relevant page first, with what ranked above it', () => {
    const page = (name: string) => `https://docs.example/${name}.html`;
    const documents = ['json', 'pickle', 'marshal', 'genindex'].map((name) => ({
      url: page(name),
      title: `${name} module`,
      description: '',
      body: '',
    }));
    const run = {
      name: 'engine',
      rankings: [
        [page('json')],
        [page('pickle'), page('marshal'), page('json')],
        [page('genindex'), page('pickle')],
      ],
      indexSeconds: 0,
      searchSeconds: 0,
    };
    const judgments = [
      { query: 'json', relevant: new Set([page('json')]) },
      { query: 'dumps', relevant: new Set([page('json'), page('marshal')]) },
      { query: 'loads', relevant: new Set([page('json')]) },
    ];
    const isListing = (url: string) => url === page('genindex');
    const listed = (name: string, listing = false) => ({ url: page(name), title: `${name} module`, listing });
    assert.deepEqual(failuresOf(run, judgments, documents, isListing), [
      {
        query: 'dumps',
        rank: 2,
        top: [listed('pickle'), listed('marshal'), listed('json')],
        above: [listed('pickle')],
        listingAbove: false,
        relevant: [listed('marshal')],
      },
      {
        query: 'loads',
        rank: null,
        top: [listed('genindex', true), listed('pickle')],
        above: [listed('genindex', true)],
        listingAbove: true,
        relevant: [listed('json')],
      },
    ]);
  });

  test('a listing page counts where it comes before the relevant page, or first without one', () => {
    const judgments = [
      { query: 'a', relevant: new Set(['x']) },
      { query: 'b', relevant: new Set(['x']) },
      { query: 'c', relevant: new Set(['x']) },
      { query: 'd', relevant: new Set(['x']) },
    ];
    const rankings = [
      ['index', 'y', 'x'],
      ['x', 'index'],
      ['y', 'index'],
      ['index', 'search', 'x'],
    ];
    const isListing = (url: string) => url === 'index' || url === 'search';
    assert.deepEqual(listingAboveOf(rankings, judgments, isListing), {
      queries: 2,
      pages: [
        { url: 'index', queries: 2 },
        { url: 'search', queries: 1 },
      ],
    });
  });

  test("crawled URLs become the set's, a folder being its index.html", () => {
    const spec = { baseUrl: 'https://httpd.example/ja/', isListing: (file: string) => file === 'index.html' };
    const urls = new SiteUrls(spec, 'http://127.0.0.1:8080/ja/');
    assert.equal(
      urls.setUrlOf('http://127.0.0.1:8080/ja/mod/core.html'),
      'https://httpd.example/ja/mod/core.html',
    );
    assert.equal(urls.setUrlOf('http://127.0.0.1:8080/ja/'), 'https://httpd.example/ja/index.html');
    assert.equal(urls.setUrlOf('http://127.0.0.1:8080/ja/mod/'), 'https://httpd.example/ja/mod/index.html');
    assert.equal(urls.isListing('https://httpd.example/ja/index.html'), true);
    assert.equal(urls.isListing('https://httpd.example/ja/mod/index.html'), false);
    assert.deepEqual(ownerSetting('http://127.0.0.1:8080/ja/', { servedFolder: '..', path: '/ja/' }), {
      seed_urls: ['http://127.0.0.1:8080/ja/'],
      allow_urls_patterns: ['^http://127\\.0\\.0\\.1:8080/ja/'],
    });
    assert.deepEqual(ownerSetting('http://127.0.0.1:8080/', { servedFolder: '.', path: '/' }), {
      seed_urls: ['http://127.0.0.1:8080/'],
    });
  });

  const set = (mrr: number, templateShare: number): SetFigures => ({
    key: 'python',
    label: 'Python documentation (English)',
    debianPackage: 'python3-doc',
    packageVersion: '3.11.2-1',
    pages: 496,
    queries: 400,
    judgedPages: 216,
    templateBlocks: 17,
    systems: [{ name: 'engine', mrr, ndcg: 0.9, missed: 21, empty: 7 }],
    snippets: { snippets: 1735, templateShare, queryWordShare: 0.787, descriptionTemplateShare: 1 },
    suggest: [{ prefixChars: 2, queries: 400, mrr: 0.0409, top10Share: 0.123 }],
  });

  test('the before/after table gives each measure with its change', () => {
    const before: EvalFigures = { measuredAt: '2025-01-01T00:00:00Z', sets: [set(0.8913, 0.257)] };
    const after: EvalFigures = { measuredAt: '2025-01-02T00:00:00Z', sets: [set(0.9013, 0.05)] };
    const text = comparisonLines(before, after).join('\n');
    assert.match(
      text,
      /== Python documentation \(English\): before 400 queries, 496 pages read from disk, python3-doc 3\.11\.2-1/,
    );
    assert.match(text, /MRR@10 +0\.8913 +0\.9013 +\+0\.0100/);
    assert.match(text, /nDCG@10 +0\.9000 +0\.9000 +±0\.0000/);
    assert.match(text, /snippets with template text +25\.7% +5\.0% +−20\.7 pt/);
    assert.match(text, /suggest MRR, 2 chars +0\.0409 +0\.0409/);
    assert.match(text, /suggest MRR, 3 chars +– +–/);
    assert.match(text, /listing page above relevant +– +–/);
  });

  test('the table shows the crawled corpus and its listing pages above the relevant one', () => {
    const crawled = (listingAbove: number): SetFigures => {
      const figures = set(0.9, 0.1);
      return { ...figures, corpus: 'crawl', pages: 530, systems: [{ ...figures.systems[0]!, listingAbove }] };
    };
    const before: EvalFigures = { measuredAt: '2025-01-01T00:00:00Z', sets: [crawled(12)] };
    const after: EvalFigures = { measuredAt: '2025-01-02T00:00:00Z', sets: [crawled(5)] };
    const text = comparisonLines(before, after).join('\n');
    assert.match(text, /before 400 queries, 530 pages crawled/);
    assert.match(text, /listing page above relevant +12 +5 +−7/);
  });

  test('a file that is not a figures file is refused with its name', () => {
    assert.throws(() => parseFigures('{', 'x.json'), /x\.json: not JSON/);
    assert.throws(() => parseFigures('{"a":1}', 'y.json'), /y\.json: not an eval:search figures file/);
  });
});
