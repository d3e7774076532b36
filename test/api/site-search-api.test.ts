/**
 * The site search API's /search end to end against the real service: a corpus with known answers
 * written into the demo search service's index, then Japanese matching, width folding, legacy
 * input encodings, query syntax, sorts, paging, filters, facets, highlights and the answer shape,
 * checked on ranks and values.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { SearchServiceConfig } from '../../src/domain/schemas.js';
import { SearchIndex } from '../../src/search/local-index.js';
import { searchIndexFile } from '../../src/config/index.js';
import { systemClock } from '../../src/util/index.js';
import {
  DOCS,
  type DocName,
  type DrilldownNodeView,
  docPath,
  highlighted,
  HttpClient,
  joined,
  nameOfUrl,
  PYTHON_DOCS,
  queryOf,
  RARE_WORD,
  type SearchAnswer,
  seedSearchIndex,
  urlOf,
  HOST,
} from '../support/search-fixtures.js';
import { startTestService, type TestService } from '../support/service-harness.js';

/** Category rules in an order that is not alphabetical, so config order is visible. */
const BASE_CONFIG: SearchServiceConfig = {
  categories: [
    { name: 'News', url_pattern: '/news/' },
    { name: 'Files', url_pattern: '/files/' },
    { name: 'Docs', url_pattern: '/docs/' },
    { name: 'Pets', url_pattern: '/pets/' },
  ],
};

const SEARCH = `${docPath(1)}/search`;

let service: TestService;
let http: HttpClient;

async function configure(config: SearchServiceConfig): Promise<void> {
  assert.ok(await service.service.store.searchServices.updateConfig(1, config, systemClock.nowMicros()));
  // Written to the store directly: told to the service as its management API would.
  service.service.searchServices.forget(1);
}

async function search(
  parameters: Record<string, string | number | readonly string[]>,
): Promise<SearchAnswer> {
  return http.json<SearchAnswer>(`${SEARCH}?${queryOf(parameters)}`);
}

async function searchError(query: string, status = 400) {
  const answer = await service.inject({ method: 'GET', url: `${SEARCH}?${query}` });
  assert.equal(answer.statusCode, status, answer.body);
  assert.equal(answer.json.status, 'NG');
  return answer.json as { status: string; message: string; errors?: { field: string; reason: string }[] };
}

const names = (answer: SearchAnswer): DocName[] => answer.organic.docs.map((doc) => nameOfUrl(doc.url));
const sorted = <T>(values: readonly T[]): T[] => [...values].sort();

before(async () => {
  service = await startTestService();
  // Written before the service opens the index, as `kumo index` would.
  seedSearchIndex(service.dataDir, 1);
  await configure(BASE_CONFIG);
  http = new HttpClient(service.url);
});

after(async () => {
  await http.close();
  await service.close();
});

describe('site search: Japanese and width folding', () => {
  test('a 2-character word (京都) finds the Kyoto page ranked above the page that only says 東京都', async () => {
    const answer = await search({ q: '京都' });
    assert.equal(answer.organic.hits, 2);
    assert.deepEqual(names(answer), ['kyoto', 'tokyo']);
    assert.deepEqual(
      answer.organic.docs.map((doc) => doc.ranking),
      [1, 2],
    );
  });

  test('a word inside a compound is found: キャプチャ in キャプチャツール, 検索 in 全文検索エンジン', async () => {
    const capture = await search({ q: 'キャプチャ' });
    assert.equal(capture.organic.hits, 1);
    assert.deepEqual(names(capture), ['capture']);
    assert.deepEqual(highlighted(capture.organic.docs[0]!.highlight.document_text_parts), ['キャプチャ']);

    const kensaku = await search({ q: '検索' });
    assert.equal(kensaku.organic.hits, 2);
    assert.deepEqual(sorted(names(kensaku)), ['fulltext', 'siteSearchGuide']);
    const fulltext = kensaku.organic.docs.find((doc) => doc.url === urlOf('fulltext'))!;
    assert.deepEqual(highlighted(fulltext.highlight.title_parts), ['検索']);
  });

  test('half-width ｶﾀｶﾅ finds full-width カタカナ and back; highlights keep the page’s own form', async () => {
    for (const q of ['ｶﾀｶﾅ', 'カタカナ']) {
      const answer = await search({ q });
      assert.equal(answer.organic.hits, 2, q);
      assert.deepEqual(sorted(names(answer)), ['kanaFull', 'kanaHalf'], q);
      const byName = new Map(answer.organic.docs.map((doc) => [nameOfUrl(doc.url), doc]));
      assert.deepEqual(highlighted(byName.get('kanaHalf')!.highlight.title_parts), ['ｶﾀｶﾅ'], q);
      assert.deepEqual(highlighted(byName.get('kanaFull')!.highlight.title_parts), ['カタカナ'], q);
      assert.deepEqual(highlighted(byName.get('kanaHalf')!.highlight.document_text_parts), ['ｶﾀｶﾅ'], q);
    }
  });

  test('full-width ＰＹＴＨＯＮ finds the ASCII pages, and python finds the full-width page', async () => {
    const wide = await search({ q: 'ＰＹＴＨＯＮ' });
    const narrow = await search({ q: 'python' });
    assert.equal(wide.organic.hits, PYTHON_DOCS.length);
    assert.deepEqual(sorted(names(wide)), sorted(PYTHON_DOCS));
    assert.deepEqual(names(wide), names(narrow));
    for (const answer of [wide, narrow]) {
      const byName = new Map(answer.organic.docs.map((doc) => [nameOfUrl(doc.url), doc]));
      assert.deepEqual(highlighted(byName.get('pyFullwidth')!.highlight.title_parts), ['ＰＹＴＨＯＮ']);
      assert.deepEqual(highlighted(byName.get('pyTutorial')!.highlight.title_parts), ['Python']);
    }
  });

  test('a Shift_JIS-encoded q (raw bytes) finds the 検索 pages and is echoed decoded', async () => {
    const answer = await http.json<SearchAnswer>(`${SEARCH}?q=%8C%9F%8D%F5&input_encoding=sjis`);
    assert.equal(answer.parameter.q, '検索');
    assert.equal(answer.parameter.input_encoding, 'sjis');
    assert.equal(answer.organic.hits, 2);
    assert.deepEqual(sorted(names(answer)), ['fulltext', 'siteSearchGuide']);
  });

  test('EUC-JP and ISO-2022-JP encoded q find the same pages', async () => {
    const utf8 = await search({ q: '検索' });
    for (const [encoding, bytes] of [
      ['euc-jp', '%B8%A1%BA%F7'],
      ['jis', '%1B%24B8%21%3Aw%1B%28B'],
    ] as const) {
      const answer = await http.json<SearchAnswer>(`${SEARCH}?input_encoding=${encoding}&q=${bytes}`);
      assert.equal(answer.parameter.q, '検索', encoding);
      assert.equal(answer.parameter.input_encoding, encoding);
      assert.deepEqual(names(answer), names(utf8), encoding);
    }
  });
});

describe('site search: query syntax', () => {
  test('a quoted phrase needs the words adjacent; without quotes both pages match, the adjacent one first', async () => {
    const phrase = await search({ q: '"search engine"' });
    assert.equal(phrase.organic.hits, 1);
    assert.deepEqual(names(phrase), ['phraseNear']);
    assert.deepEqual(highlighted(phrase.organic.docs[0]!.highlight.document_text_parts), ['search engine']);

    const words = await search({ q: 'search engine' });
    assert.equal(words.organic.hits, 2);
    assert.deepEqual(names(words), ['phraseNear', 'phraseApart']);
  });

  test('-word leaves out the pages containing it; a query of only exclusions finds nothing', async () => {
    const answer = await search({ q: 'python -snake' });
    assert.equal(answer.organic.hits, PYTHON_DOCS.length - 1);
    assert.ok(!names(answer).includes('pySnake'));
    assert.deepEqual(sorted(names(answer)), sorted(PYTHON_DOCS.filter((name) => name !== 'pySnake')));

    const onlyExclusions = await search({ q: '-python -snake' });
    assert.equal(onlyExclusions.organic.hits, 0);
    assert.deepEqual(onlyExclusions.organic.docs, []);
  });

  test('OR between words finds pages with either', async () => {
    const answer = await search({ q: 'snake OR tips' });
    assert.deepEqual(sorted(names(answer)), ['pyBlog', 'pySnake']);
  });

  test('an empty q and a q of only punctuation answer 200 with no hits', async () => {
    for (const q of ['', '、。!?']) {
      const answer = await search({ q });
      assert.equal(answer.organic.hits, 0, q);
      assert.deepEqual(answer.organic.docs, [], q);
      assert.equal(answer.organic.range_min, 0);
      assert.equal(answer.organic.range_max, 0);
      assert.equal(answer.parameter.q, q);
    }
    const absent = await http.json<SearchAnswer>(SEARCH);
    assert.equal(absent.organic.hits, 0);
    assert.deepEqual(absent.organic.docs, []);
  });
});

describe('site search: sorting', () => {
  const byDate = [...PYTHON_DOCS].sort((a, b) => DOCS[b].lastModified! - DOCS[a].lastModified!);

  test('score is the default: the same order as sort_by=score desc and sort_by=score', async () => {
    const plain = await search({ q: 'python' });
    assert.deepEqual(plain.parameter.sort_by, ['score desc']);
    const explicit = await search({ q: 'python', sort_by: 'score desc' });
    const short = await search({ q: 'python', sort_by: 'score' });
    assert.deepEqual(names(explicit), names(plain));
    assert.deepEqual(names(short), names(plain));
    assert.deepEqual(short.parameter.sort_by, ['score desc']);
    assert.deepEqual(
      plain.organic.docs.map((doc) => doc.ranking),
      [1, 2, 3, 4, 5, 6],
    );
  });

  test('last_modified desc puts the newest first; asc reverses', async () => {
    const answer = await search({ q: 'python', sort_by: 'last_modified desc' });
    assert.deepEqual(names(answer), byDate);
    const dates = answer.organic.docs.map((doc) => doc.last_modified);
    assert.deepEqual(
      dates,
      byDate.map((name) => DOCS[name].lastModified),
    );
    for (let i = 1; i < dates.length; i++) assert.ok(dates[i - 1]! > dates[i]!);
    const ascending = await search({ q: 'python', sort_by: 'last_modified asc' });
    assert.deepEqual(names(ascending), [...byDate].reverse());
    // A form sends the space as +.
    const plus = await http.json<SearchAnswer>(`${SEARCH}?q=python&sort_by=last_modified+asc`);
    assert.deepEqual(plus.parameter.sort_by, ['last_modified asc']);
    assert.deepEqual(names(plus), [...byDate].reverse());
    const orderLeftOut = await search({ q: 'python', sort_by: 'last_modified' });
    assert.deepEqual(orderLeftOut.parameter.sort_by, ['last_modified desc']);
    assert.deepEqual(names(orderLeftOut), byDate);
  });

  test('title asc orders by the normalized title, full-width letters as their ASCII forms', async () => {
    const answer = await search({ q: 'python', sort_by: 'title asc' });
    assert.deepEqual(
      answer.organic.docs.map((doc) => doc.title),
      [
        'Python 3.13 released',
        'Python snake care',
        'Python tips from the blog',
        'Python Tutorial',
        'Python typing guide',
        'ＰＹＴＨＯＮ　ガイド',
      ],
    );
  });

  test('click desc orders by clicks recorded through the click endpoint; several keys break ties', async () => {
    const clicks: [DocName, number][] = [
      ['pyTyping', 3],
      ['pySnake', 2],
      ['pyBlog', 1],
    ];
    for (const [name, count] of clicks) {
      for (let i = 0; i < count; i++) {
        const answer = await http.get(`${docPath(1)}/click?${queryOf({ url: urlOf(name), q: 'python' })}`);
        assert.equal(answer.status, 302);
      }
    }
    const byClicks = await search({ q: 'python', sort_by: 'click desc' });
    assert.deepEqual(names(byClicks).slice(0, 3), ['pyTyping', 'pySnake', 'pyBlog']);
    assert.equal(byClicks.organic.hits, PYTHON_DOCS.length);

    const twoKeys = await search({ q: 'python', sort_by: 'click desc,last_modified desc' });
    assert.deepEqual(twoKeys.parameter.sort_by, ['click desc', 'last_modified desc']);
    const unclicked = byDate.filter((name) => !clicks.some(([clicked]) => clicked === name));
    assert.deepEqual(names(twoKeys), ['pyTyping', 'pySnake', 'pyBlog', ...unclicked]);

    // The same keys as repeated parameters.
    const repeated = await search({ q: 'python', sort_by: ['click desc', 'last_modified desc'] });
    assert.deepEqual(names(repeated), names(twoKeys));
  });

  test('an unknown sort field or order is a 400 naming query.sort_by', async () => {
    for (const value of ['size desc', 'title up', 'score desc desc']) {
      const body = await searchError(queryOf({ q: 'python', sort_by: value }));
      assert.ok(
        body.errors?.some((error) => error.field === 'query.sort_by'),
        `${value}: ${JSON.stringify(body)}`,
      );
    }
  });
});

describe('site search: paging', () => {
  test('page 2 continues page 1 without overlap; rankings and ranges continue', async () => {
    const first = await search({ q: 'python', number_per_page: 4 });
    const second = await search({ q: 'python', number_per_page: 4, page_number: 2 });
    const all = await search({ q: 'python', number_per_page: 100 });
    assert.equal(first.organic.hits, 6);
    assert.equal(second.organic.hits, 6);
    assert.equal(first.organic.docs.length, 4);
    assert.equal(second.organic.docs.length, 2);
    assert.deepEqual([first.organic.range_min, first.organic.range_max], [1, 4]);
    assert.deepEqual([second.organic.range_min, second.organic.range_max], [5, 6]);
    assert.deepEqual(
      first.organic.docs.map((doc) => doc.ranking),
      [1, 2, 3, 4],
    );
    assert.deepEqual(
      second.organic.docs.map((doc) => doc.ranking),
      [5, 6],
    );
    assert.deepEqual([...names(first), ...names(second)], names(all));
    assert.equal(new Set([...names(first), ...names(second)]).size, 6);
  });

  test('a page past the end has no docs, the same hits, and range 0..0', async () => {
    const answer = await search({ q: 'python', number_per_page: 4, page_number: 3 });
    assert.equal(answer.organic.hits, 6);
    assert.deepEqual(answer.organic.docs, []);
    assert.equal(answer.organic.range_min, 0);
    assert.equal(answer.organic.range_max, 0);
  });

  test('number_per_page 0 answers counts, categories and facets without docs', async () => {
    const answer = await search({ q: 'python', number_per_page: 0 });
    assert.equal(answer.organic.hits, 6);
    assert.deepEqual(answer.organic.docs, []);
    assert.deepEqual([answer.organic.range_min, answer.organic.range_max], [0, 0]);
    assert.deepEqual(answer.category.items, ['News', 'Docs', 'Pets']);
    assert.equal(answer.facet_drilldown_roots.length, 2);
    assert.equal(
      answer.facet_drilldown_roots.reduce((sum, root) => sum + root.facet_drilldowns[0]!.count, 0),
      6,
    );
  });

  test('number_per_page 100 is accepted; 101 and page_number 0 are 400s naming the parameter', async () => {
    const hundred = await search({ q: 'python', number_per_page: 100 });
    assert.equal(hundred.parameter.number_per_page, 100);
    assert.equal(hundred.organic.docs.length, 6);
    const over = await searchError('q=python&number_per_page=101');
    assert.deepEqual(
      over.errors?.map((error) => error.field),
      ['query.number_per_page'],
    );
    const zeroPage = await searchError('q=python&page_number=0');
    assert.deepEqual(
      zeroPage.errors?.map((error) => error.field),
      ['query.page_number'],
    );
    const notNumber = await searchError('q=python&number_per_page=ten');
    assert.deepEqual(
      notNumber.errors?.map((error) => error.field),
      ['query.number_per_page'],
    );
  });
});

describe('site search: filters and facets', () => {
  const QUARTERLY: DocName[] = ['quarterlyPdf', 'quarterlyDoc', 'quarterlyXls', 'quarterlyHtml'];

  test('doctype narrows to one type, to several (comma or repeated), and all is every type', async () => {
    const every = await search({ q: 'quarterly' });
    assert.deepEqual(sorted(names(every)), sorted(QUARTERLY));
    assert.deepEqual(every.parameter.doctype, ['all']);

    const pdf = await search({ q: 'quarterly', doctype: 'pdf' });
    assert.deepEqual(names(pdf), ['quarterlyPdf']);
    assert.equal(pdf.organic.hits, 1);
    assert.equal(pdf.organic.docs[0]!.doctype, 'pdf');
    assert.deepEqual(pdf.parameter.doctype, ['pdf']);

    const comma = await search({ q: 'quarterly', doctype: 'pdf,doc' });
    assert.equal(comma.organic.hits, 2);
    assert.deepEqual(sorted(names(comma)), ['quarterlyDoc', 'quarterlyPdf']);
    assert.deepEqual(comma.parameter.doctype, ['pdf', 'doc']);

    const repeated = await search({ q: 'quarterly', doctype: ['xls', 'html'] });
    assert.deepEqual(sorted(names(repeated)), ['quarterlyHtml', 'quarterlyXls']);
    assert.deepEqual(repeated.parameter.doctype, ['xls', 'html']);

    const all = await search({ q: 'quarterly', doctype: 'all' });
    assert.equal(all.organic.hits, 4);

    const ppt = await search({ q: 'quarterly', doctype: 'ppt' });
    assert.equal(ppt.organic.hits, 0);
    assert.deepEqual(ppt.organic.docs, []);
  });

  test('an unknown doctype is a 400 naming query.doctype', async () => {
    const body = await searchError('q=quarterly&doctype=pdf,exe');
    assert.deepEqual(
      body.errors?.map((error) => error.field),
      ['query.doctype'],
    );
    assert.match(body.errors![0]!.reason, /exe/);
  });

  test('category.items lists the categories with hits in config order; category= narrows and is echoed', async () => {
    const all = await search({ q: 'python' });
    assert.deepEqual(all.category.items, ['News', 'Docs', 'Pets']);
    assert.deepEqual(all.category.selected, []);
    assert.equal(all.parameter.category, '');

    const docs = await search({ q: 'python', category: 'Docs' });
    assert.equal(docs.organic.hits, 3);
    assert.deepEqual(sorted(names(docs)), ['pyFullwidth', 'pyTutorial', 'pyTyping']);
    assert.deepEqual(docs.category.selected, ['Docs']);
    assert.equal(docs.parameter.category, 'Docs');
    // The items stay those of the query, so a visitor can switch category.
    assert.deepEqual(docs.category.items, ['News', 'Docs', 'Pets']);

    const files = await search({ q: 'quarterly' });
    assert.deepEqual(files.category.items, ['News', 'Files']);
    const news = await search({ q: 'quarterly', category: 'News' });
    assert.deepEqual(names(news), ['quarterlyHtml']);
  });

  /** A tree as [path, count, children] for comparison. */
  type Shape = [string, number, Shape[]];
  const shapeOf = (node: DrilldownNodeView): Shape => [
    node.path,
    node.count,
    (node.children ?? []).map(shapeOf),
  ];

  test('default drill-down labels are host, first and second directory, counted at every level', async () => {
    const answer = await search({ q: 'python', number_per_page: 1 });
    assert.equal(answer.organic.docs.length, 1);
    const roots = answer.facet_drilldown_roots;
    assert.deepEqual(
      roots.map((root) => shapeOf(root.facet_drilldowns[0]!)),
      [
        [
          'www.example.com',
          5,
          [
            ['www.example.com\tdocs', 3, [['www.example.com\tdocs\tpython', 2, []]]],
            ['www.example.com\tnews', 1, [['www.example.com\tnews\t2024', 1, []]]],
            ['www.example.com\tpets', 1, []],
          ],
        ],
        ['blog.example.org', 1, [['blog.example.org\tposts', 1, [['blog.example.org\tposts\t2023', 1, []]]]]],
      ],
    );
    // Counts are over every hit of the query, not the one doc of the page.
    assert.equal(
      roots.reduce((sum, root) => sum + root.facet_drilldowns[0]!.count, 0),
      answer.organic.hits,
    );
    const www = roots[0]!.facet_drilldowns[0]!;
    assert.equal(www.depth, 1);
    assert.equal(www.title, 'www.example.com');
    const docsNode = www.children![0]!;
    assert.equal(docsNode.depth, 2);
    assert.equal(docsNode.title, 'docs');
    assert.equal(docsNode.children![0]!.depth, 3);
    assert.equal(docsNode.children![0]!.title, 'python');
    for (const root of roots) {
      assert.equal(root.is_selected, false);
      assert.equal(root.is_opened, false);
    }
    // Each doc carries its own labels.
    const full = await search({ q: 'python', number_per_page: 10 });
    const byName = new Map(full.organic.docs.map((doc) => [nameOfUrl(doc.url), doc]));
    assert.deepEqual(byName.get('pyTutorial')!.drilldown, ['www.example.com\tdocs\tpython']);
    assert.deepEqual(byName.get('pyFullwidth')!.drilldown, ['www.example.com\tdocs']);
    assert.deepEqual(byName.get('pySnake')!.drilldown, ['www.example.com\tpets']);
    assert.deepEqual(byName.get('pyBlog')!.drilldown, ['blog.example.org\tposts\t2023']);
  });

  test('drilldown=<host>%09docs narrows to the subtree and marks it selected and its ancestors opened', async () => {
    const answer = await http.json<SearchAnswer>(
      `${SEARCH}?q=python&drilldown=www.example.com%09docs&number_per_page=10`,
    );
    assert.deepEqual(answer.parameter.drilldown, ['www.example.com\tdocs']);
    assert.equal(answer.organic.hits, 3);
    assert.deepEqual(sorted(names(answer)), ['pyFullwidth', 'pyTutorial', 'pyTyping']);
    const [wwwRoot, blogRoot] = answer.facet_drilldown_roots;
    assert.equal(wwwRoot!.is_opened, true);
    assert.equal(wwwRoot!.is_selected, false);
    assert.equal(blogRoot!.is_opened, false);
    assert.equal(blogRoot!.is_selected, false);
    const www = wwwRoot!.facet_drilldowns[0]!;
    assert.deepEqual([www.is_selected, www.is_opened], [false, true]);
    // The facet still counts every hit of the query, so other branches can be chosen.
    assert.equal(www.count, 5);
    const [docsNode, newsNode, petsNode] = www.children!;
    assert.equal(docsNode!.path, 'www.example.com\tdocs');
    assert.deepEqual([docsNode!.is_selected, docsNode!.is_opened], [true, true]);
    const pythonNode = docsNode!.children![0]!;
    assert.deepEqual([pythonNode.is_selected, pythonNode.is_opened], [false, false]);
    assert.deepEqual([newsNode!.is_selected, newsNode!.is_opened], [false, false]);
    assert.deepEqual([petsNode!.is_selected, petsNode!.is_opened], [false, false]);

    // A host alone narrows to everything under it.
    const host = await search({ q: 'python', drilldown: 'blog.example.org' });
    assert.deepEqual(names(host), ['pyBlog']);
    assert.equal(host.facet_drilldown_roots[1]!.is_selected, true);
    assert.equal(host.facet_drilldown_roots[1]!.is_opened, true);
  });

  test('drill-down rules with $1 label pages, a page may belong to several roots, and repeated paths combine with OR', async () => {
    await configure({
      ...BASE_CONFIG,
      drilldowns: [
        { url_pattern: '^https://[^/]+/docs/([^/]+)/', path: 'Documentation\t$1' },
        { url_pattern: 'python', path: 'Topics\tPython' },
        { url_pattern: '^https://blog\\.example\\.org/', path: 'Blog' },
      ],
    });
    try {
      const answer = await search({ q: 'python', number_per_page: 1 });
      assert.equal(answer.organic.hits, 6);
      assert.deepEqual(
        answer.facet_drilldown_roots.map((root) => shapeOf(root.facet_drilldowns[0]!)),
        [
          ['Topics', 4, [['Topics\tPython', 4, []]]],
          ['Documentation', 2, [['Documentation\tpython', 2, []]]],
          ['Blog', 1, []],
        ],
      );
      const full = await search({ q: 'python', number_per_page: 10 });
      const byName = new Map(full.organic.docs.map((doc) => [nameOfUrl(doc.url), doc]));
      assert.deepEqual(byName.get('pyTutorial')!.drilldown, ['Documentation\tpython', 'Topics\tPython']);
      assert.deepEqual(byName.get('pyBlog')!.drilldown, ['Topics\tPython', 'Blog']);
      assert.deepEqual(byName.get('pyFullwidth')!.drilldown, []);

      const topics = await search({ q: 'python', drilldown: 'Topics' });
      assert.deepEqual(sorted(names(topics)), ['pyBlog', 'pyRelease', 'pyTutorial', 'pyTyping']);
      const either = await search({ q: 'python', drilldown: ['Documentation\tpython', 'Blog'] });
      assert.deepEqual(sorted(names(either)), ['pyBlog', 'pyTutorial', 'pyTyping']);
      const roots = either.facet_drilldown_roots;
      assert.deepEqual(
        roots.map((root) => [root.facet_drilldowns[0]!.title, root.is_selected, root.is_opened]),
        [
          ['Topics', false, false],
          ['Documentation', false, true],
          ['Blog', true, true],
        ],
      );
      assert.equal(roots[1]!.facet_drilldowns[0]!.children![0]!.is_selected, true);
    } finally {
      await configure(BASE_CONFIG);
    }
  });
});

describe('site search: answer shape and highlights', () => {
  test('the parameter echo holds every member with the values asked for', async () => {
    const answer = await http.json<SearchAnswer>(
      `${SEARCH}?q=python&page_number=2&number_per_page=3&sort_by=last_modified,title%20asc` +
        '&category=Docs&drilldown=www.example.com%09docs&doctype=html&doctype=pdf',
    );
    assert.deepEqual(answer.parameter, {
      q: 'python',
      input_encoding: 'utf8',
      page_number: 2,
      number_per_page: 3,
      sort_by: ['last_modified desc', 'title asc'],
      category: 'Docs',
      drilldown: ['www.example.com\tdocs'],
      doctype: ['html', 'pdf'],
    });
    const defaults = await http.json<SearchAnswer>(`${SEARCH}?q=x`);
    assert.deepEqual(defaults.parameter, {
      q: 'x',
      input_encoding: 'utf8',
      page_number: 1,
      number_per_page: 10,
      sort_by: ['score desc'],
      category: '',
      drilldown: [],
      doctype: ['all'],
    });
    assert.deepEqual(Object.keys(defaults).sort(), [
      'category',
      'facet_drilldown_roots',
      'organic',
      'parameter',
      'spellcheck',
    ]);
  });

  test('every organic doc has every OrganicDoc field with the right type and the page’s values', async () => {
    for (const q of ['python', 'quarterly', '京都']) {
      const answer = await search({ q });
      assert.ok(answer.organic.docs.length > 0);
      answer.organic.docs.forEach((doc, index) => {
        const source = DOCS[nameOfUrl(doc.url)];
        assert.deepEqual(Object.keys(doc).sort(), [
          'content_size',
          'description',
          'doctype',
          'drilldown',
          'highlight',
          'last_modified',
          'ranking',
          'start_text',
          'title',
          'url',
        ]);
        assert.equal(doc.ranking, index + 1);
        assert.ok(Number.isInteger(doc.ranking));
        assert.equal(doc.title, source.title);
        assert.equal(
          doc.description,
          source.description !== '' ? source.description : [...source.body].slice(0, 200).join(''),
        );
        assert.equal(doc.start_text, [...source.body].slice(0, 200).join(''));
        assert.equal(doc.content_size, source.contentSize ?? Buffer.byteLength(source.body));
        assert.ok(Number.isInteger(doc.content_size));
        assert.equal(doc.last_modified, source.lastModified);
        assert.ok(Number.isInteger(doc.last_modified));
        assert.equal(doc.doctype, source.doctype ?? 'html');
        assert.ok(Array.isArray(doc.drilldown) && doc.drilldown.every((label) => typeof label === 'string'));
        assert.equal(doc.drilldown.length, 1);
        assert.deepEqual(Object.keys(doc.highlight).sort(), [
          'description_parts',
          'document_text_parts',
          'title_parts',
          'url_parts',
        ]);
        for (const parts of Object.values(doc.highlight)) {
          assert.ok(Array.isArray(parts));
          for (const part of parts) {
            assert.deepEqual(Object.keys(part).sort(), ['is_highlighted', 'text']);
            assert.equal(typeof part.is_highlighted, 'boolean');
            assert.equal(typeof part.text, 'string');
            assert.notEqual(part.text, '');
          }
        }
      });
    }
  });

  test('title, description and url parts join to the text exactly; the query word is highlighted in them', async () => {
    const answer = await search({ q: 'python' });
    for (const doc of answer.organic.docs) {
      assert.equal(joined(doc.highlight.title_parts), doc.title);
      assert.equal(joined(doc.highlight.description_parts), doc.description);
      assert.equal(joined(doc.highlight.url_parts), doc.url);
      assert.ok(highlighted(doc.highlight.document_text_parts).length > 0, doc.url);
    }
    const tutorial = answer.organic.docs.find((doc) => doc.url === urlOf('pyTutorial'))!;
    assert.deepEqual(highlighted(tutorial.highlight.title_parts), ['Python']);
    assert.deepEqual(highlighted(tutorial.highlight.description_parts), ['Python']);
    assert.deepEqual(highlighted(tutorial.highlight.url_parts), ['python']);
  });

  test('the body snippet is cut around a match deep in a long body and stays short', async () => {
    const answer = await search({ q: RARE_WORD });
    assert.equal(answer.organic.hits, 1);
    const doc = answer.organic.docs[0]!;
    assert.equal(doc.url, urlOf('longPage'));
    const parts = doc.highlight.document_text_parts;
    assert.deepEqual(highlighted(parts), [RARE_WORD]);
    const snippet = joined(parts);
    assert.ok([...snippet].length <= 170, `snippet of ${[...snippet].length} characters: ${snippet}`);
    assert.equal(parts[0]!.text, '…');
    assert.ok(DOCS.longPage.body.includes(snippet.replace(/^…/, '').replace(/…$/, '')));
    // start_text is still the start of the body, without the match.
    assert.ok(!doc.start_text.includes(RARE_WORD));
    assert.equal(doc.start_text, DOCS.longPage.body.slice(0, 200));
  });
});

describe('site search: index changes', () => {
  test('a page added through another connection after the service searched is found by the next search', async () => {
    const before = await search({ q: 'zeppelin' });
    assert.equal(before.organic.hits, 0);
    seedSearchIndex(service.dataDir, 1, [
      {
        url: `${HOST}/news/zeppelin.html`,
        title: 'Zeppelin flight',
        description: '',
        body: 'A zeppelin crossed the bay.',
        lastModified: 1_740_000_000,
      },
    ]);
    const afterAdd = await search({ q: 'zeppelin' });
    assert.equal(afterAdd.organic.hits, 1);
    assert.equal(afterAdd.organic.docs[0]!.url, `${HOST}/news/zeppelin.html`);
    assert.deepEqual(highlighted(afterAdd.organic.docs[0]!.highlight.title_parts), ['Zeppelin']);
    // The rest of the index is still there.
    const python = await search({ q: 'python' });
    assert.equal(python.organic.hits, PYTHON_DOCS.length);
  });

  test('a page replaced or removed through another connection is searched as it is now', async () => {
    const index = new SearchIndex(searchIndexFile(service.dataDir, 1));
    try {
      index.writer.upsert(
        [{ ...DOCS.pyRelease, title: 'Python 3.14 shipped', body: 'The python release shipped.' }],
        'bundle:test',
      );
      index.writer.remove([urlOf('pySnake')]);
    } finally {
      index.close();
    }
    // Quoted, as written: unquoted, `released` also finds the new text's `release` (word forms).
    const released = await search({ q: '"released"' });
    assert.equal(released.organic.hits, 0);
    const shipped = await search({ q: 'shipped' });
    assert.deepEqual(names(shipped), ['pyRelease']);
    assert.equal(shipped.organic.docs[0]!.title, 'Python 3.14 shipped');
    const python = await search({ q: 'python' });
    assert.equal(python.organic.hits, PYTHON_DOCS.length - 1);
    assert.ok(!names(python).includes('pySnake'));
    // A removed page is no longer a click target.
    const click = await http.get(`${docPath(1)}/click?${queryOf({ url: urlOf('pySnake') })}`);
    assert.equal(click.status, 404);
  });
});
