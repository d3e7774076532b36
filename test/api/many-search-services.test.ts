/**
 * Many search services on one node (docs/design/search-engine.md, Many services on one node): a
 * process serves far more services than it keeps open. Each is opened at its first search and
 * closed once idle or to make room for another, so the index files the process holds stay
 * bounded, while every service keeps answering with its own pages and counting its searches.
 */
import assert from 'node:assert/strict';
import { readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { defaultHitThreads, HIT_THREAD_KEEPS } from '../../src/search/site/index.js';
import { systemClock } from '../../src/util/index.js';
import { docPath, HttpClient, type SearchAnswer, seedSearchIndex } from '../support/search-fixtures.js';
import {
  DEMO_TENANT,
  pollUntil,
  sleep,
  startTestService,
  TEST_ADMIN_TOKEN,
  type TestService,
} from '../support/service-harness.js';

const SERVICES = 40;
const MAX_OPEN = 6;
const IDLE_SECONDS = 2;

let kumo: TestService;
let client: HttpClient;
const serviceIds: number[] = [];

/** A syllable per digit: two services' words differ by three letters at least. */
const SYLLABLES = ['bal', 'cor', 'dev', 'fin', 'gup', 'hox', 'jil', 'mer', 'nas', 'pot'];
/** A word only service `id`'s pages hold: letters only, so the analyzer keeps it one word. */
const wordOf = (id: number) => `kumo${[...String(id)].map((digit) => SYLLABLES[Number(digit)]).join('')}`;

/** The search services whose index files this process holds open, by the files' names. */
function servicesWithOpenFiles(): Set<number> {
  const open = new Set<number>();
  for (const fd of readdirSync('/proc/self/fd')) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // closed since the listing
    }
    if (!target.startsWith(kumo.dataDir)) continue;
    const match = /\/search\/service-(\d+)\.db(?:-wal|-shm)?$/.exec(target);
    if (match !== null) open.add(Number(match[1]));
  }
  return open;
}

async function search(id: number, query: string): Promise<SearchAnswer> {
  return client.json<SearchAnswer>(`${docPath(id)}/search?q=${encodeURIComponent(query)}`);
}

before(async () => {
  kumo = await startTestService({
    overrides: { searchOpenServices: MAX_OPEN, searchIdleSeconds: IDLE_SECONDS },
  });
  client = new HttpClient(kumo.url);
  for (let n = 0; n < SERVICES; n += 1) {
    const created = await kumo.service.store.searchServices.create(
      DEMO_TENANT,
      `site ${n}`,
      {},
      systemClock.nowMicros(),
    );
    serviceIds.push(created.id);
    seedSearchIndex(kumo.dataDir, created.id, [
      {
        url: `https://site${created.id}.example/`,
        title: `Home of site ${created.id}`,
        description: '',
        body: `welcome ${wordOf(created.id)} shared words`,
      },
      {
        url: `https://site${created.id}.example/about.html`,
        title: 'About',
        description: '',
        body: 'shared words about us',
      },
    ]);
  }
});

after(async () => {
  await kumo?.close();
});

describe('many search services on one node', () => {
  test('every service answers with its own pages while the files held open stay bounded', async () => {
    // The result page threads keep a few read connections of their own (hit-page-worker.ts).
    const bound = MAX_OPEN + defaultHitThreads() * HIT_THREAD_KEEPS;
    let most = 0;
    for (const round of [1, 2]) {
      for (const id of serviceIds) {
        const own = await search(id, wordOf(id));
        assert.deepEqual(
          own.organic.docs.map((doc) => doc.url),
          [`https://site${id}.example/`],
          `round ${round}, service ${id}`,
        );
        // Another service's word finds nothing of that service here.
        const other = serviceIds.find((candidate) => candidate !== id)!;
        const elsewhere = await search(id, wordOf(other));
        assert.ok(
          elsewhere.organic.docs.every((doc) => doc.url.startsWith(`https://site${id}.example/`)),
          JSON.stringify(elsewhere.organic.docs.map((doc) => doc.url)),
        );
        most = Math.max(most, servicesWithOpenFiles().size);
      }
    }
    assert.ok(most <= bound, `at most ${bound} services' files open at once, saw ${most}`);
    assert.ok(most >= MAX_OPEN, `services stayed open between searches (${most})`);
  });

  test('a service idle past KUMO_SEARCH_IDLE_SECONDS is closed, and opens again at its next search', async () => {
    const [first] = serviceIds;
    assert.equal((await search(first!, 'shared')).organic.hits, 2);
    // Every service is closed once idle, the one just searched included.
    await pollUntil(
      'idle services to be closed',
      () =>
        serviceIds.every((id) => kumo.service.searchServices.servedGeneration(id) === undefined)
          ? true
          : undefined,
      (IDLE_SECONDS + 15) * 1000,
    );
    // Only the result page threads' own connections may hold index files now.
    assert.ok(servicesWithOpenFiles().size <= defaultHitThreads() * HIT_THREAD_KEEPS);
    const again = await search(first!, wordOf(first!));
    assert.deepEqual(
      again.organic.docs.map((doc) => doc.url),
      [`https://site${first!}.example/`],
    );
    assert.ok(servicesWithOpenFiles().has(first!));
  });

  test("a closed service's searches were counted: its analytics hold them", async () => {
    const id = serviceIds[3]!;
    await pollUntil(
      `service ${id} to be closed`,
      () => (kumo.service.searchServices.servedGeneration(id) === undefined ? true : undefined),
      (IDLE_SECONDS + 15) * 1000,
    );
    // Read through the management API, which opens the service again from its file.
    const report = await kumo.inject({
      method: 'GET',
      url: `/admin/v1/contracts/1/servicegroups/1/search_services/${id}/analytics`,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    assert.equal(report.statusCode, 200, report.body);
    const counted = report.json.top_queries as { query: string; searches: number }[];
    // Both rounds of the first test searched its own word twice.
    assert.equal(counted.find((row) => row.query === wordOf(id))?.searches, 2, JSON.stringify(counted));
  });

  test('counts a busy index file could not take are written before the service closes', async () => {
    const id = serviceIds[5]!;
    // Open, its first search counted and written by the flush of every second.
    assert.equal((await search(id, 'welcome')).organic.hits, 1);
    await sleep(1500);
    // Another process writing the file (kumo index) holds its write lock.
    const locker = new Database(path.join(kumo.dataDir, 'search', `service-${id}.db`));
    locker.exec('BEGIN IMMEDIATE');
    try {
      for (let n = 0; n < 3; n += 1) assert.equal((await search(id, 'welcome')).organic.hits, 1);
      await pollUntil(
        `service ${id} to leave service once idle`,
        () => (kumo.service.searchServices.servedGeneration(id) === undefined ? true : undefined),
        (IDLE_SECONDS + 15) * 1000,
      );
      // Its counts could not be written all that while.
      await sleep(1500);
    } finally {
      locker.exec('COMMIT');
      locker.close();
    }
    const counted = async () => {
      const report = await kumo.inject({
        method: 'GET',
        url: `/admin/v1/contracts/1/servicegroups/1/search_services/${id}/analytics`,
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      });
      assert.equal(report.statusCode, 200, report.body);
      const rows = report.json.top_queries as { query: string; searches: number }[];
      return rows.find((row) => row.query === 'welcome')?.searches;
    };
    // Written once the file was free, then closed; or taken back by the analytics call and written.
    await pollUntil('the four searches to be counted', async () =>
      (await counted()) === 4 ? true : undefined,
    );
  });
});
