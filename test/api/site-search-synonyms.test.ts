/**
 * Synonyms of a search service (docs/reference/site-search.md, Synonyms) end to end: configured
 * through the management API, applied by the site search API over HTTP to a real index shaped
 * like a Japanese manual that writes バーチャルホスト throughout and 仮想ホスト once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { SearchServiceConfig } from '../../src/domain/schemas.js';
import type { IndexedDocument } from '../../src/search/index.js';
import { assertNg } from '../support/api-assertions.js';
import {
  docPath,
  highlighted,
  HttpClient,
  queryOf,
  type SearchAnswer,
  seedSearchIndex,
  type SuggestAnswer,
} from '../support/search-fixtures.js';
import { startTestService, type TestService } from '../support/service-harness.js';

const ADMIN_TOKEN = 'test-admin-token-synonyms-0123';
const SERVICE_PATH = '/admin/v1/contracts/1/servicegroups/1/search_services/1';
const SITE = 'https://httpd.example.org';

const page = (name: string, title: string, body: string): IndexedDocument => ({
  url: `${SITE}/${name}.html`,
  title,
  description: '',
  body,
});

/** The corpus, by name: a manual that mostly writes バーチャルホスト, as the site does. */
const PAGES = {
  vhosts: page(
    'vhosts',
    'バーチャルホスト',
    'Apache のバーチャルホストは一台のサーバで複数のサイトを扱います。',
  ),
  nameBased: page('name-based', '名前ベースのバーチャルホスト', '名前ベースのバーチャルホストの設定例です。'),
  kanji: page('kanji', '仮想ホスト', '仮想ホストは一台のサーバで複数のサイトを扱います。'),
  english: page('english', 'Examples', 'A virtual host serves several sites from one server.'),
  apart: page('apart', 'Machines', 'A virtual machine runs on a host with many others.'),
  postgres: page('postgres', 'Tuning', 'Tuning postgresql for many connections.'),
  pgClient: page('pg-client', 'Client library', 'The pg client library for Node.'),
  login: page('login', 'ログイン', 'ログインの手順を説明します。'),
  signIn: page('sign-in', 'サインイン', 'サインインの手順を説明します。'),
  userName: page('user-name', 'Accounts', 'Enter your user name and password.'),
} as const;
type PageName = keyof typeof PAGES;

let service: TestService;
let http: HttpClient;

before(async () => {
  service = await startTestService({ overrides: { adminToken: ADMIN_TOKEN } });
  seedSearchIndex(service.dataDir, 1, Object.values(PAGES));
  http = new HttpClient(service.url);
});

after(async () => {
  await http.close();
  await service.close();
});

/** Replaces the configuration of search service 1 through the management API. */
async function configure(config: SearchServiceConfig | Record<string, unknown>) {
  return service.inject({
    method: 'PUT',
    url: SERVICE_PATH,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ config }),
  });
}

async function configured(config: SearchServiceConfig): Promise<void> {
  const answer = await configure(config);
  assert.equal(answer.statusCode, 200, answer.body);
}

async function search(q: string): Promise<SearchAnswer> {
  return http.json<SearchAnswer>(`${docPath(1)}/search?${queryOf({ q })}`);
}

const names = (answer: SearchAnswer): PageName[] =>
  answer.organic.docs.map((doc) => {
    const found = (Object.keys(PAGES) as PageName[]).find((name) => PAGES[name].url === doc.url);
    assert.ok(found !== undefined, doc.url);
    return found;
  });
const sorted = <T>(values: readonly T[]): T[] => [...values].sort();

const VHOST_GROUP = ['仮想ホスト', 'バーチャルホスト', 'virtual host'];

describe('synonyms: two-way groups', () => {
  test('without synonyms 仮想ホスト finds only the one page that writes it', async () => {
    await configured({});
    assert.deepEqual(names(await search('仮想ホスト')), ['kanji']);
  });

  test('with the group, 仮想ホスト finds the バーチャルホスト pages, its own page ranked first, highlighted', async () => {
    await configured({ synonyms: { groups: [VHOST_GROUP] } });
    const answer = await search('仮想ホスト');
    assert.equal(answer.organic.hits, 4);
    const ranked = names(answer);
    assert.equal(ranked[0], 'kanji', 'the form typed ranks above pages found through a synonym');
    assert.deepEqual(sorted(ranked), ['english', 'kanji', 'nameBased', 'vhosts']);
    const vhosts = answer.organic.docs[ranked.indexOf('vhosts')]!;
    assert.deepEqual(highlighted(vhosts.highlight.title_parts), ['バーチャルホスト']);
    assert.deepEqual(highlighted(vhosts.highlight.document_text_parts), ['バーチャルホスト']);
    const english = answer.organic.docs[ranked.indexOf('english')]!;
    assert.deepEqual(highlighted(english.highlight.document_text_parts), ['virtual host']);
  });

  test('any member finds the others; the typed form ranks above synonym-only pages', async () => {
    await configured({ synonyms: { groups: [VHOST_GROUP] } });
    const answer = await search('バーチャルホスト');
    const ranked = names(answer);
    assert.deepEqual(sorted(ranked.slice(0, 2)), ['nameBased', 'vhosts']);
    assert.deepEqual(sorted(ranked.slice(2)), ['english', 'kanji']);
  });

  test('full-width and upper-case members match their normalized forms', async () => {
    await configured({ synonyms: { groups: [['ＶＩＲＴＵＡＬ　ＨＯＳＴ', 'ﾊﾞｰﾁｬﾙﾎｽﾄ']] } });
    assert.deepEqual(sorted(names(await search('Virtual Host'))), [
      'apart',
      'english',
      'nameBased',
      'vhosts',
    ]);
  });
});

describe('synonyms: multi-word members', () => {
  test('a multi-word alternative is matched as a phrase: virtual…host apart is not found', async () => {
    await configured({ synonyms: { groups: [VHOST_GROUP] } });
    const answer = await search('仮想ホスト');
    assert.ok(names(answer).includes('english'));
    assert.ok(!names(answer).includes('apart'));
  });

  test('words of the query equal to a member find its synonyms, and still find the words apart', async () => {
    await configured({ synonyms: { groups: [VHOST_GROUP] } });
    const answer = await search('virtual host');
    const ranked = names(answer);
    assert.deepEqual(sorted(ranked), ['apart', 'english', 'kanji', 'nameBased', 'vhosts']);
    assert.equal(ranked[0], 'english', 'the words typed, adjacent, rank first');
  });

  test('a quoted phrase and an excluded word are taken as written', async () => {
    await configured({ synonyms: { groups: [VHOST_GROUP] } });
    assert.deepEqual(names(await search('"仮想ホスト"')), ['kanji']);
    // Both pages say サイト; only the one that writes 仮想ホスト itself is left out.
    assert.deepEqual(names(await search('サイト -仮想ホスト')), ['vhosts']);
  });
});

describe('synonyms inside Japanese written without spaces', () => {
  test('仮想ホストの設定 finds the page that writes バーチャルホストの設定, highlighted', async () => {
    await configured({});
    assert.deepEqual(names(await search('仮想ホストの設定')), []);
    await configured({ synonyms: { groups: [VHOST_GROUP] } });
    const answer = await search('仮想ホストの設定');
    assert.deepEqual(names(answer), ['nameBased']);
    assert.deepEqual(highlighted(answer.organic.docs[0]!.highlight.document_text_parts), [
      'バーチャルホストの設定',
    ]);
  });

  test('the form typed ranks first, and the rest of the word must still be there, adjacent', async () => {
    await configured({ synonyms: { groups: [VHOST_GROUP] } });
    assert.deepEqual(names(await search('仮想ホストは一台のサーバ')), ['kanji', 'vhosts']);
    // No page writes either form followed by の手順: the word's other parts are not dropped.
    assert.deepEqual(names(await search('仮想ホストの手順')), []);
    // Other words of the query are still required alongside.
    assert.deepEqual(names(await search('仮想ホストの設定 サイト')), []);
    assert.deepEqual(names(await search('仮想ホストの設定 名前ベース')), ['nameBased']);
  });
});

describe('synonyms: one-way rules', () => {
  test('pg also finds postgresql, but postgresql does not find pg', async () => {
    await configured({ synonyms: { rules: [{ from: 'pg', to: ['postgresql'] }] } });
    const forward = names(await search('pg'));
    assert.deepEqual(forward, ['pgClient', 'postgres']);
    assert.deepEqual(names(await search('postgresql')), ['postgres']);
    assert.deepEqual(names(await search('PG')), ['pgClient', 'postgres'], 'matched without regard to case');
  });
});

describe('synonyms: the starter set', () => {
  test('is off by default and works when turned on', async () => {
    await configured({});
    assert.deepEqual(names(await search('ログイン')), ['login']);
    assert.deepEqual(names(await search('username')), []);
    await configured({ synonyms: { starter_set: true } });
    assert.deepEqual(names(await search('ログイン')), ['login', 'signIn']);
    assert.deepEqual(names(await search('サインイン')), ['signIn', 'login']);
    assert.deepEqual(names(await search('username')), ['userName']);
    assert.deepEqual(sorted(names(await search('仮想ホスト'))), ['english', 'kanji', 'nameBased', 'vhosts']);
    await configured({ synonyms: { starter_set: false } });
    assert.deepEqual(names(await search('サインイン')), ['signIn']);
  });

  test('suggestions do not change with synonyms', async () => {
    const suggest = (q: string) => http.json<SuggestAnswer>(`${docPath(1)}/suggest?${queryOf({ q })}`);
    await configured({});
    const without = await suggest('仮想');
    await configured({ synonyms: { starter_set: true, groups: [VHOST_GROUP] } });
    assert.deepEqual(await suggest('仮想'), without);
  });
});

describe('synonyms: configuration errors', () => {
  const cases: { synonyms: unknown; field: string; reason?: RegExp }[] = [
    { synonyms: { groups: [['仮想ホスト']] }, field: 'body.config.synonyms.groups[0]' },
    {
      synonyms: { groups: [['Email', 'ＥＭＡＩＬ']] },
      field: 'body.config.synonyms.groups[0][1]',
      reason: /again/,
    },
    {
      synonyms: { groups: [['--', 'x']] },
      field: 'body.config.synonyms.groups[0][0]',
      reason: /no letters or digits/,
    },
    {
      synonyms: { groups: [['a b c d e f g h i', 'x']] },
      field: 'body.config.synonyms.groups[0][0]',
      reason: /8 words/,
    },
    { synonyms: { groups: [['x'.repeat(101), 'y']] }, field: 'body.config.synonyms.groups[0][0]' },
    { synonyms: { rules: [{ from: 'pg', to: [] }] }, field: 'body.config.synonyms.rules[0].to' },
    { synonyms: { rules: [{ from: 'pg', to: ['PG'] }] }, field: 'body.config.synonyms.rules[0].to[0]' },
    { synonyms: { rules: [{ from: 'pg' }] }, field: 'body.config.synonyms.rules[0].to' },
    { synonyms: { starter_set: 'yes' }, field: 'body.config.synonyms.starter_set' },
    { synonyms: { group: [] }, field: 'body.config.synonyms.group' },
    {
      synonyms: { groups: Array.from({ length: 1001 }, (_, index) => [`a${index}`, `b${index}`]) },
      field: 'body.config.synonyms.groups',
    },
  ];
  for (const { synonyms, field, reason } of cases) {
    test(`${JSON.stringify(synonyms).slice(0, 60)} is a 400 naming ${field}`, async () => {
      const answer = await configure({ synonyms });
      assertNg(answer, 400);
      const errors = answer.json.errors as { field: string; reason: string }[];
      const error = errors.find((candidate) => candidate.field === field);
      assert.ok(error !== undefined, `no error names ${field}: ${answer.body}`);
      if (reason !== undefined) assert.match(error.reason, reason);
    });
  }
});
