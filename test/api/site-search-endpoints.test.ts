/**
 * The site search API around /search, end to end against the real service: JSONP, suggest from
 * logged queries and index words, did-you-mean, related keywords, click redirects, origin checks,
 * the error answers and the health check.
 */
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { after, before, describe, test } from 'node:test';
import type { SearchServiceConfig } from '../../src/domain/schemas.js';
import { searchIndexFile } from '../../src/config/index.js';
import { systemClock } from '../../src/util/index.js';
import {
  COMMON_WORD,
  DOCS,
  docPath,
  FINDER_BASE,
  HOST,
  HttpClient,
  type NgAnswer,
  queryOf,
  RARE_WORD,
  type RelatedKeywordsAnswer,
  type SearchAnswer,
  seedSearchIndex,
  type SuggestAnswer,
  urlOf,
} from '../support/search-fixtures.js';
import { startTestService, type TestService } from '../support/service-harness.js';

let service: TestService;
let http: HttpClient;
/** A second search service of the demo tenant, only for suggest, so its query log is this file's. */
let suggestServiceId: number;

const DEMO = docPath(1);
/** A page whose URL was indexed with a non-ASCII path, as a document source may write it. */
const IRI_PAGE = {
  url: `${HOST}/製品/camera.html`,
  title: 'Camera catalogue',
  description: '',
  body: 'Every camera we sell.',
};

async function configure(config: SearchServiceConfig): Promise<void> {
  assert.ok(await service.service.store.searchServices.updateConfig(1, config, systemClock.nowMicros()));
  // Written to the store directly: told to the service as its management API would.
  service.service.searchServices.forget(1);
}

async function searchOn(path: string, parameters: Record<string, string | number>): Promise<SearchAnswer> {
  return http.json<SearchAnswer>(`${path}/search?${queryOf(parameters)}`);
}

before(async () => {
  service = await startTestService();
  const tenant = { contractId: 1, servicegroupId: 1 };
  const record = await service.service.store.searchServices.create(
    tenant,
    'suggest',
    {},
    systemClock.nowMicros(),
  );
  suggestServiceId = record.id;
  seedSearchIndex(service.dataDir, 1);
  seedSearchIndex(service.dataDir, suggestServiceId, [...Object.values(DOCS), IRI_PAGE]);
  http = new HttpClient(service.url);
});

after(async () => {
  await http.close();
  await service.close();
});

describe('site search: JSONP', () => {
  test('callback=cb wraps the same answer as JavaScript with nosniff', async () => {
    const plain = await http.get(`${DEMO}/search?q=python`);
    const jsonp = await http.get(`${DEMO}/search?q=python&callback=cb`);
    assert.equal(plain.status, 200);
    assert.match(plain.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(jsonp.status, 200);
    assert.match(jsonp.headers.get('content-type') ?? '', /^application\/javascript/);
    assert.equal(jsonp.headers.get('x-content-type-options'), 'nosniff');
    assert.ok(jsonp.text.startsWith('/**/cb('), jsonp.text.slice(0, 40));
    assert.ok(jsonp.text.endsWith(');'), jsonp.text.slice(-40));
    const inner = jsonp.text.slice('/**/cb('.length, -');'.length);
    assert.deepEqual(JSON.parse(inner), JSON.parse(plain.text));
    assert.equal((JSON.parse(inner) as SearchAnswer).organic.hits, 6);
  });

  test('a dotted callback path works on suggest too, and a script Accept header is served', async () => {
    const answer = await http.get(`${DEMO}/suggest?q=pyth&callback=app.search.done`, {
      accept: 'application/javascript',
    });
    assert.equal(answer.status, 200);
    assert.ok(answer.text.startsWith('/**/app.search.done('));
    const inner = JSON.parse(answer.text.slice('/**/app.search.done('.length, -2)) as SuggestAnswer;
    assert.ok(Array.isArray(inner.suggestions));
  });

  test('hostile callbacks are a 400 with an NG JSON body naming query.callback', async () => {
    for (const callback of ['alert(1)//', 'a;b', '<script>', 'a'.repeat(129), '1abc']) {
      const answer = await http.get(`${DEMO}/search?${queryOf({ q: 'python', callback })}`);
      assert.equal(answer.status, 400, callback);
      assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
      const body = JSON.parse(answer.text) as NgAnswer;
      assert.equal(body.status, 'NG');
      assert.deepEqual(
        body.errors?.map((error) => error.field),
        ['query.callback'],
      );
      assert.ok(!answer.text.includes('<script>'), callback);
    }
  });

  test('</script> in the data is written as \\u003c inside JSONP', async () => {
    const answer = await http.get(`${DEMO}/search?q=escaping&callback=cb`);
    assert.equal(answer.status, 200);
    assert.ok(!answer.text.includes('</script>'));
    assert.ok(answer.text.includes('\\u003c/script>'));
    const inner = JSON.parse(answer.text.slice('/**/cb('.length, -2)) as SearchAnswer;
    assert.equal(inner.organic.docs[0]!.title, DOCS.scriptTitle.title);
  });
});

describe('site search: suggest', () => {
  const path = () => docPath(suggestServiceId);
  const suggest = (parameters: Record<string, string | number>) =>
    http.json<SuggestAnswer>(`${path()}/suggest?${queryOf(parameters)}`);

  test('successful queries are suggested by frequency; a zero-hit query never is', async () => {
    const zero = await searchOn(path(), { q: 'pythonic' });
    assert.equal(zero.organic.hits, 0);
    for (let i = 0; i < 3; i++) {
      assert.ok((await searchOn(path(), { q: 'python tutorial' })).organic.hits > 0);
    }
    assert.ok((await searchOn(path(), { q: 'python typing' })).organic.hits > 0);

    const answer = await suggest({ q: 'python t' });
    const words = answer.suggestions.map((s) => s.word);
    assert.equal(words[0], 'python tutorial', JSON.stringify(answer));
    assert.equal(words[1], 'python typing', JSON.stringify(answer));
    const [tutorial, typing] = answer.suggestions;
    assert.ok(tutorial!.point > typing!.point);
    for (const suggestion of answer.suggestions) {
      assert.ok(suggestion.point >= 0 && suggestion.point <= 1, JSON.stringify(suggestion));
      assert.ok(suggestion.word.startsWith('python t'), suggestion.word);
    }
    for (let i = 1; i < answer.suggestions.length; i++) {
      assert.ok(answer.suggestions[i - 1]!.point >= answer.suggestions[i]!.point);
    }

    for (const q of ['pytho', 'pythonic']) {
      const none = await suggest({ q });
      assert.ok(!none.suggestions.some((s) => s.word === 'pythonic'), JSON.stringify(none));
    }
  });

  test('a title phrase is suggested only as two words that are adjacent in the title', async () => {
    // "Python 3.13 released": python is followed by 3, not by 13.
    const answer = await suggest({ q: 'python 1' });
    assert.ok(!answer.suggestions.some((s) => s.word === 'python 13'), JSON.stringify(answer));
  });

  test('a word of the index completes a prefix', async () => {
    const answer = await suggest({ q: RARE_WORD.slice(0, 7) });
    assert.ok(
      answer.suggestions.some((s) => s.word === RARE_WORD),
      JSON.stringify(answer),
    );
    const quarter = await suggest({ q: 'quarter' });
    assert.equal(quarter.suggestions[0]?.word, 'quarterly', JSON.stringify(quarter));
  });

  test('a query that led to clicks (through the click API) is suggested above one asked more often', async () => {
    const tenant = { contractId: 1, servicegroupId: 1 };
    const { id } = await service.service.store.searchServices.create(
      tenant,
      'clicks',
      {},
      systemClock.nowMicros(),
    );
    seedSearchIndex(service.dataDir, id);
    const clicks = docPath(id);
    for (let i = 0; i < 3; i++)
      assert.ok((await searchOn(clicks, { q: 'python tutorial' })).organic.hits > 0);
    assert.ok((await searchOn(clicks, { q: 'Python  Typing' })).organic.hits > 0);
    const click = await http.get(
      `${clicks}/click?${queryOf({ url: urlOf('pyTyping'), q: 'python typing' })}`,
    );
    assert.equal(click.status, 302);
    const answer = await http.json<SuggestAnswer>(`${clicks}/suggest?${queryOf({ q: 'python t' })}`);
    assert.deepEqual(
      answer.suggestions.slice(0, 2).map((s) => s.word),
      ['python typing', 'python tutorial'],
      JSON.stringify(answer),
    );
  });

  test('number_per_suggestion limits the list; out of range is a 400', async () => {
    const many = await suggest({ q: 'python' });
    assert.ok(many.suggestions.length > 2, JSON.stringify(many));
    const two = await suggest({ q: 'python', number_per_suggestion: 2 });
    assert.equal(two.suggestions.length, 2);
    assert.deepEqual(two.suggestions, many.suggestions.slice(0, 2));
    const bad = await http.json<NgAnswer>(`${path()}/suggest?q=python&number_per_suggestion=0`, 400);
    assert.deepEqual(
      bad.errors?.map((error) => error.field),
      ['query.number_per_suggestion'],
    );
  });

  test('an empty q suggests nothing', async () => {
    const answer = await suggest({ q: '' });
    assert.deepEqual(answer.suggestions, []);
  });
});

describe('site search: did-you-mean and related keywords', () => {
  test('a misspelt word gets the corrected phrase; a correct query gets an empty main_phrase', async () => {
    const typo = await searchOn(DEMO, { q: 'pyhton' });
    assert.equal(typo.organic.hits, 0);
    assert.equal(typo.spellcheck.main_phrase, 'python');
    const serch = await searchOn(DEMO, { q: 'serch' });
    assert.equal(serch.organic.hits, 0);
    assert.equal(serch.spellcheck.main_phrase, 'search');
    const twoWords = await searchOn(DEMO, { q: 'pyhton tutorial' });
    assert.equal(twoWords.organic.hits, 0);
    assert.equal(twoWords.spellcheck.main_phrase, 'python tutorial');
    const right = await searchOn(DEMO, { q: 'python' });
    assert.equal(right.spellcheck.main_phrase, '');
    const japanese = await searchOn(DEMO, { q: '京都' });
    assert.equal(japanese.spellcheck.main_phrase, '');
  });

  test('related keywords with a prefix: only words starting with it, never the query word', async () => {
    const answer = await http.json<RelatedKeywordsAnswer>(
      `${DEMO}/related_keywords?${queryOf({ q: 'python', prefix: 't' })}`,
    );
    const words = answer.related_keywords.map((entry) => entry.word);
    assert.ok(words.length <= 10);
    // The t-words in two or more python pages and nowhere else.
    assert.deepEqual([...words].sort(), ['testing', 'typing']);
    assert.ok(words.every((word) => word.startsWith('t')));
    assert.ok(!words.includes('python'));
  });

  test('related keywords without a prefix: words significant for the matches, not those of every page', async () => {
    const answer = await http.json<RelatedKeywordsAnswer>(`${DEMO}/related_keywords?q=python`);
    const words = answer.related_keywords.map((entry) => entry.word);
    assert.ok(words.length > 0 && words.length <= 10, JSON.stringify(words));
    assert.ok(words.includes('typing'), JSON.stringify(words));
    assert.ok(!words.includes(COMMON_WORD), JSON.stringify(words));
    assert.ok(!words.includes('python'));
    const nothing = await http.json<RelatedKeywordsAnswer>(`${DEMO}/related_keywords?q=zzzzqqq`);
    assert.deepEqual(nothing.related_keywords, []);
  });
});

describe('site search: click', () => {
  test('click on an indexed URL answers 302 to exactly that URL', async () => {
    const url = urlOf('pyTutorial');
    const answer = await http.get(`${DEMO}/click?${queryOf({ url, q: 'python' })}`);
    assert.equal(answer.status, 302);
    assert.equal(answer.headers.get('location'), url);
    const wide = urlOf('kanaHalf');
    const again = await http.get(`${DEMO}/click?${queryOf({ url: wide })}`);
    assert.equal(again.status, 302);
    assert.equal(again.headers.get('location'), wide);
  });

  test('a URL not in the index is a 404 (no open redirect); a missing url is a 400', async () => {
    const outside = await http.get(`${DEMO}/click?${queryOf({ url: 'https://evil.example/', q: 'x' })}`);
    assert.equal(outside.status, 404);
    assert.equal(outside.headers.get('location'), null);
    assert.equal((JSON.parse(outside.text) as NgAnswer).status, 'NG');
    const missing = await http.get(`${DEMO}/click?q=python`);
    assert.equal(missing.status, 400);
    const body = JSON.parse(missing.text) as NgAnswer;
    assert.equal(body.status, 'NG');
    assert.deepEqual(
      body.errors?.map((error) => error.field),
      ['query.url'],
    );
    const script = await http.get(`${DEMO}/click?${queryOf({ url: 'javascript:alert(1)' })}`);
    assert.equal(script.status, 400);
  });

  test('click on an indexed URL with a non-ASCII path redirects to its percent-encoded form', async () => {
    const path = docPath(suggestServiceId);
    const found = await searchOn(path, { q: 'camera' });
    assert.deepEqual(
      found.organic.docs.map((doc) => doc.url),
      [IRI_PAGE.url],
    );
    const answer = await http.get(`${path}/click?${queryOf({ url: IRI_PAGE.url, q: 'camera' })}`);
    assert.equal(answer.status, 302, answer.text);
    assert.equal(answer.headers.get('location'), new URL(IRI_PAGE.url).href);
  });
});

describe('site search: errors, origins and health', () => {
  test('an unknown service id is a 404; another contract’s path for service 1 is a 404', async () => {
    const unknown = await service.inject({ method: 'GET', url: `${docPath(999)}/search?q=python` });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json.status, 'NG');
    const other = await service.createTenant('other');
    for (const path of [
      docPath(1, other.contractId, other.servicegroupId),
      docPath(1, 1, other.servicegroupId),
      docPath(1, other.contractId, 1),
    ]) {
      const answer = await service.inject({ method: 'GET', url: `${path}/search?q=python` });
      assert.equal(answer.statusCode, 404, path);
      assert.equal(answer.json.status, 'NG');
      assert.ok(!answer.body.includes(DOCS.pyTutorial.url));
    }
  });

  test('an index file of another format is a 503 saying to index again; other services still answer', async () => {
    const tenant = { contractId: 1, servicegroupId: 1 };
    const record = await service.service.store.searchServices.create(
      tenant,
      'old',
      {},
      systemClock.nowMicros(),
    );
    const file = searchIndexFile(service.dataDir, record.id);
    const old = new Database(file);
    old.exec(
      "CREATE TABLE index_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO index_meta VALUES ('analyzer', '1');",
    );
    old.close();
    const answer = await service.inject({ method: 'GET', url: `${docPath(record.id)}/search?q=python` });
    assert.equal(answer.statusCode, 503);
    assert.equal(answer.json.status, 'NG');
    assert.match(answer.json.message, /remove the file and run kumo index again/);
    const healthy = await service.inject({ method: 'GET', url: `${DEMO}/search?q=python` });
    assert.equal(healthy.statusCode, 200);
  });

  test('a non-integer path id is a 400 naming path.service_id', async () => {
    const answer = await service.inject({
      method: 'GET',
      url: `${FINDER_BASE}/documents/1/1/abc/search?q=x`,
    });
    assert.equal(answer.statusCode, 400);
    assert.equal(answer.json.status, 'NG');
    assert.ok(
      (answer.json.errors as { field: string }[]).some((error) => error.field === 'path.service_id'),
      answer.body,
    );
  });

  test('an unknown input_encoding is a 400 naming query.input_encoding', async () => {
    const answer = await service.inject({ method: 'GET', url: `${DEMO}/search?q=x&input_encoding=utf16` });
    assert.equal(answer.statusCode, 400);
    assert.deepEqual(answer.json.errors, [
      {
        field: 'query.input_encoding',
        reason: 'must be one of "utf8", "sjis", "jis", "euc-jp", "euc-kr", "iso-8859-1"',
      },
    ]);
  });

  test('POST is a 405 with Allow; an Accept that excludes JSON is a 406', async () => {
    for (const endpoint of ['search', 'suggest', 'related_keywords', 'click']) {
      const post = await service.inject({ method: 'POST', url: `${DEMO}/${endpoint}?q=python` });
      assert.equal(post.statusCode, 405, endpoint);
      assert.match(String(post.headers.allow), /\bGET\b/);
      assert.equal(post.json.status, 'NG');
    }
    const xml = await service.inject({
      method: 'GET',
      url: `${DEMO}/search?q=python`,
      headers: { accept: 'application/xml' },
    });
    assert.equal(xml.statusCode, 406);
    assert.equal(xml.json.status, 'NG');
  });

  test('without allowed origins any page may call; with them another origin is a 403 and a listed one gets CORS', async () => {
    const open = await http.get(`${DEMO}/search?q=python`, { origin: 'https://evil.example' });
    assert.equal(open.status, 200);
    assert.equal(open.headers.get('access-control-allow-origin'), '*');

    await configure({ allowed_origins: ['https://good.example', 'http://localhost:8080'] });
    try {
      const evil = await http.get(`${DEMO}/search?q=python`, { origin: 'https://evil.example' });
      assert.equal(evil.status, 403);
      assert.equal((JSON.parse(evil.text) as NgAnswer).status, 'NG');
      const evilReferer = await http.get(`${DEMO}/search?q=python&callback=cb`, {
        referer: 'https://evil.example/page.html',
      });
      assert.equal(evilReferer.status, 403);

      const good = await http.get(`${DEMO}/search?q=python`, { origin: 'https://good.example' });
      assert.equal(good.status, 200);
      assert.equal(good.headers.get('access-control-allow-origin'), 'https://good.example');
      assert.equal((JSON.parse(good.text) as SearchAnswer).organic.hits, 6);

      const local = await http.get(`${DEMO}/suggest?q=pyth`, { origin: 'http://localhost:8080' });
      assert.equal(local.status, 200);
      assert.equal(local.headers.get('access-control-allow-origin'), 'http://localhost:8080');

      const referer = await http.get(`${DEMO}/search?q=python&callback=cb`, {
        referer: 'https://good.example/search/results.html?q=python',
      });
      assert.equal(referer.status, 200);
      assert.ok(referer.text.startsWith('/**/cb('));
      assert.equal(referer.headers.get('access-control-allow-origin'), 'https://good.example');

      // A server calling without either header is not a visitor of another site.
      const server = await http.get(`${DEMO}/search?q=python`);
      assert.equal(server.status, 200);
      // But a script loaded with its Referer suppressed, or a browser's cross-site fetch, is.
      const hiddenScript = await http.get(`${DEMO}/search?q=python&callback=cb`);
      assert.equal(hiddenScript.status, 403);
      const crossSite = await http.get(`${DEMO}/search?q=python`, { 'sec-fetch-site': 'cross-site' });
      assert.equal(crossSite.status, 403);
    } finally {
      await configure({});
    }
  });

  test('the OpenAPI document describes every site search endpoint', async () => {
    const answer = await service.inject({ method: 'GET', url: '/docs/json' });
    assert.equal(answer.statusCode, 200);
    const paths = Object.keys(answer.json.paths as Record<string, unknown>);
    for (const name of ['search', 'suggest', 'related_keywords', 'click']) {
      assert.ok(
        paths.includes(`${FINDER_BASE}/documents/{contract_id}/{servicegroup_id}/{service_id}/${name}`),
        name,
      );
    }
  });

  test('health_check answers 200 with status OK', async () => {
    const answer = await http.get(`${FINDER_BASE}/health_check`);
    assert.equal(answer.status, 200);
    const body = JSON.parse(answer.text) as { status: string };
    assert.equal(body.status, 'OK');
  });
});
