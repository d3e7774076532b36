/**
 * Words being typed through the site search API (docs/reference/site-search.md, Words being
 * typed), on pages shaped like the PostgreSQL manual's: a query ending mid-word (`vacu`,
 * `autovacu`, `replicat`, `バーチャルホ`) finds the pages of the whole word, highlighted, with no
 * did-you-mean cutting it to a shorter word; a whole word finds what it found before; a real typo
 * is still corrected; and the analytics count such a query as one with results.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { IndexedDocument } from '../../src/search/index.js';
import { manualDocument, type ManualPage, otherManualPages } from '../support/manual-pages.js';
import {
  docPath,
  highlighted,
  HttpClient,
  queryOf,
  type SearchAnswer,
  seedSearchIndex,
} from '../support/search-fixtures.js';
import { pollUntil, startTestService, type TestService } from '../support/service-harness.js';

const ADMIN_TOKEN = 'test-admin-token-words-typed-0123456789';
const SITE = 'https://manual.example/docs';
const urlOf = (slug: string) => `${SITE}/${slug}.html`;

const manual = (slug: string, title: string, mentions: ManualPage['mentions']): IndexedDocument =>
  manualDocument({ slug, title, headings: title, bodyWords: 300, mentions });

/** Pages saying `vacuum`: the chapter, the command, and maintenance pages mentioning it. */
const VACUUM_PAGES = [
  manual('sql-vacuum', 'VACUUM', [{ text: 'vacuum', times: 12 }]),
  manual('routine-vacuuming', '24.1. Routine Vacuuming', [
    { text: 'vacuum', times: 10 },
    { text: 'autovacuum', times: 4 },
  ]),
  ...Array.from({ length: 10 }, (_, n) =>
    manual(`maintenance-${n}`, `24.${n + 2}. Maintenance`, [{ text: 'vacuum', times: 2 }]),
  ),
];
const AUTOVACUUM_PAGES = [
  manual('runtime-config-autovacuum', '19.10. Autovacuum', [{ text: 'autovacuum', times: 9 }]),
  manual('autovacuum-daemon', 'The Autovacuum Daemon', [{ text: 'autovacuum', times: 6 }]),
];
/** `vacuumdb` alone: found by `vacu`, not by `vacuum`. */
const VACUUMDB_PAGE = manual('app-vacuumdb', 'vacuumdb', [{ text: 'vacuumdb', times: 8 }]);
/** The one page saying `vac`, which a did-you-mean of `vacu` used to send visitors to. */
const VAC_PAGE = manual('release-notes', 'Release Notes', [{ text: 'vac', times: 1 }]);
const REPLICATION_PAGES = [
  manual('high-availability', '27. High Availability and Replication', [{ text: 'replication', times: 8 }]),
  manual('logical-replication', '31. Logical Replication', [
    { text: 'replication', times: 10 },
    { text: 'vacuum', times: 1 },
  ]),
  manual('warm-standby', '27.2. Log-Shipping Standby Servers', [{ text: 'replicated', times: 3 }]),
];
const VHOST_PAGES: IndexedDocument[] = [
  {
    url: urlOf('ja/vhosts'),
    title: 'バーチャルホスト',
    description: '',
    body: 'バーチャルホストは一台のサーバで複数のサイトを運用する仕組みです。',
  },
  {
    url: urlOf('ja/name-based'),
    title: '名前ベースのバーチャルホスト',
    description: '',
    body: '名前ベースのバーチャルホストの設定例。',
  },
  {
    url: urlOf('ja/bind'),
    title: 'バインド',
    description: '',
    body: 'サーバが待ち受けるアドレスとポートの設定。',
  },
];

const PAGES: IndexedDocument[] = [
  ...VACUUM_PAGES,
  ...AUTOVACUUM_PAGES,
  VACUUMDB_PAGE,
  VAC_PAGE,
  ...REPLICATION_PAGES,
  ...VHOST_PAGES,
  ...otherManualPages(12).map(manualDocument),
];

let service: TestService;
let http: HttpClient;

before(async () => {
  service = await startTestService({ overrides: { adminToken: ADMIN_TOKEN } });
  seedSearchIndex(service.dataDir, 1, PAGES);
  http = new HttpClient(service.url);
});

after(async () => {
  await http.close();
  await service.close();
});

async function search(q: string): Promise<SearchAnswer> {
  return http.json<SearchAnswer>(`${docPath(1)}/search?${queryOf({ q, number_per_page: 50 })}`);
}

const urls = (answer: SearchAnswer) => answer.organic.docs.map((doc) => doc.url).sort();
const urlsOfPages = (pages: readonly IndexedDocument[]) => pages.map((page) => page.url).sort();

describe('words being typed through the site search API', () => {
  test('`vacu` finds every page of the words it starts, highlighted, with no did-you-mean', async () => {
    const answer = await search('vacu');
    assert.deepEqual(urls(answer), urlsOfPages([...VACUUM_PAGES, VACUUMDB_PAGE, REPLICATION_PAGES[1]!]));
    assert.equal(answer.organic.hits, VACUUM_PAGES.length + 2);
    assert.equal(answer.spellcheck.main_phrase, '', 'not cut to `vac`');
    const first = answer.organic.docs[0]!;
    const whole = await search('vacuum');
    assert.equal(first.url, whole.organic.docs[0]!.url, 'first the page `vacuum` ranks first');
    assert.deepEqual(highlighted(first.highlight.title_parts), ['VACUUM']);
    assert.ok(highlighted(first.highlight.document_text_parts).includes('vacuum'));
  });

  test('`autovacu` and `replicat` find the pages of `autovacuum` and of `replication`, `replicated`', async () => {
    const autovacuum = await search('autovacu');
    assert.deepEqual(urls(autovacuum), urlsOfPages([...AUTOVACUUM_PAGES, VACUUM_PAGES[1]!]));
    assert.equal(autovacuum.spellcheck.main_phrase, '');
    const replication = await search('replicat');
    assert.deepEqual(urls(replication), urlsOfPages(REPLICATION_PAGES));
    assert.equal(replication.spellcheck.main_phrase, '');
    assert.deepEqual(highlighted(replication.organic.docs[0]!.highlight.title_parts), ['Replication']);
  });

  test('katakana typed mid-word (`バーチャルホ`) finds the pages of `バーチャルホスト`', async () => {
    const answer = await search('バーチャルホ');
    assert.deepEqual(urls(answer), urlsOfPages(VHOST_PAGES.slice(0, 2)));
    assert.equal(answer.spellcheck.main_phrase, '');
  });

  test('a word on one page that starts a common one (`vac`) ranks its page first, then the common word’s', async () => {
    const answer = await search('vac');
    assert.equal(answer.organic.docs[0]!.url, VAC_PAGE.url, 'the word as typed first');
    assert.equal(answer.organic.hits, VACUUM_PAGES.length + 3);
    assert.equal(answer.spellcheck.main_phrase, '');
  });

  test('a whole word (`vacuum`) finds what it found before: its own pages, not `vacuumdb`', async () => {
    const whole = await search('vacuum');
    assert.deepEqual(urls(whole), urlsOfPages([...VACUUM_PAGES, REPLICATION_PAGES[1]!]));
    const complete = await search('vacuum ');
    assert.deepEqual(
      whole.organic.docs.map((doc) => doc.url),
      complete.organic.docs.map((doc) => doc.url),
      'the same order as the word said complete',
    );
  });

  test('a space after the word, quotes and exclusion take the word as it is', async () => {
    const spaced = await search('vacu ');
    assert.equal(spaced.organic.hits, 0);
    assert.equal(spaced.spellcheck.main_phrase, 'vacuum', 'completed, never cut to `vac`');
    assert.equal((await search('"vacu"')).organic.hits, 0);
    const excluding = await search('replication -vacu');
    assert.deepEqual(urls(excluding), urlsOfPages(REPLICATION_PAGES.slice(0, 2)));
  });

  test('the last word of several is completed; an earlier one is offered completed', async () => {
    const last = await search('replication vacu');
    assert.deepEqual(urls(last), [REPLICATION_PAGES[1]!.url]);
    const earlier = await search('vacu replication');
    assert.equal(earlier.organic.hits, 0);
    assert.equal(earlier.spellcheck.main_phrase, 'vacuum replication');
  });

  test('a real typo (`vacuun`) is still corrected', async () => {
    const answer = await search('vacuun');
    assert.equal(answer.organic.hits, 0);
    assert.equal(answer.spellcheck.main_phrase, 'vacuum');
  });

  test('the analytics count `autovacu` as a query with results', async () => {
    for (let time = 0; time < 3; time += 1) await search('autovacu');
    const report = await pollUntil(
      'the searches of `autovacu` in the analytics',
      async () => {
        const response = await fetch(
          `${service.url}/admin/v1/contracts/1/servicegroups/1/search_services/1/analytics`,
          { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
        );
        assert.equal(response.status, 200);
        const body = (await response.json()) as {
          top_queries: { query: string; searches: number; no_results: number }[];
          no_result_queries: { query: string }[];
        };
        const row = body.top_queries.find((query) => query.query === 'autovacu');
        return row !== undefined && row.searches >= 4 ? body : undefined;
      },
      10_000,
      100,
    );
    const row = report.top_queries.find((query) => query.query === 'autovacu')!;
    assert.equal(row.no_results, 0);
    assert.ok(!report.no_result_queries.some((query) => query.query === 'autovacu'));
  });
});
