/**
 * The query and click logs of a search service (docs/design/search-engine.md, Search activity): the
 * index file's own log and PostgreSQL's shared one give the same answers for the same batches, and
 * on PostgreSQL several search nodes add to one log at once, each reading what the others counted.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SearchIndex, IndexFileActivityLog } from '../../src/search/local-index.js';
import { SearchActivity } from '../../src/search/site/index.js';
import { openPostgresRecordStore } from '../../src/store/postgres/open-postgres-record-store.js';
import type { ActivityBatch, SearchActivityLog } from '../../src/store/search-activity-log.js';
import type { SearchDayCount } from '../../src/store/search-analytics.js';
import type { RecordStore } from '../../src/store/record-store.js';
import { startPostgresServer, type PostgresServer } from '../support/postgres-server.js';
import { contractIn } from './record-store-contract.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-activity-log-'));
let server: PostgresServer;
const closers: (() => unknown)[] = [];
before(async () => {
  server = await startPostgresServer();
});
after(async () => {
  for (const close of closers.reverse()) await close();
  await server.stop();
  rmSync(folder, { recursive: true, force: true });
});

const DAY_MICROS = 86_400_000_000;
const T0 = Date.parse('2026-11-20T09:00:00Z') * 1000;

function batch(parts: Partial<ActivityBatch>): ActivityBatch {
  return {
    queries: [],
    clicks: new Map(),
    queryClicks: new Map(),
    searchDays: [],
    clickDays: [],
    ...parts,
  };
}

async function allRows(rows: AsyncIterable<SearchDayCount>): Promise<SearchDayCount[]> {
  const read: SearchDayCount[] = [];
  for await (const row of rows) read.push(row);
  return read;
}

let files = 0;
function indexFileLog(): SearchActivityLog {
  const index = new SearchIndex(path.join(folder, `index-${(files += 1)}.db`));
  closers.push(() => index.close());
  return new IndexFileActivityLog(index.store);
}

/** A PostgreSQL store on a database of its own, and a search service in it. */
async function sharedStore(): Promise<{ store: RecordStore; serviceId: number }> {
  const store = await openPostgresRecordStore(await server.createDatabase(), {
    secretKey: Buffer.alloc(32, 7),
  });
  closers.push(() => store.close());
  const tenant = await contractIn(store, 'activity');
  const service = await store.searchServices.create(tenant, 'site search', {}, T0);
  return { store, serviceId: service.id };
}

for (const [name, openLog] of [
  ['index file', async () => indexFileLog()],
  [
    'PostgreSQL',
    async () => {
      const { store, serviceId } = await sharedStore();
      return store.searchActivity!.forService(serviceId);
    },
  ],
] as const) {
  describe(`search activity log: ${name}`, () => {
    test('batches add up per query, URL and day, and read back in the documented orders', async () => {
      const log = await openLog();
      await log.add(
        batch({
          queries: [
            { query: 'tomato', count: 3, hits: 12 },
            { query: 'zzz', count: 1, hits: 0 },
            { query: 'basil', count: 2, hits: 4 },
          ],
          clicks: new Map([['https://garden.example/tomato', 2]]),
          queryClicks: new Map([['tomato', 2]]),
          searchDays: [
            { day: '2026-11-19', query: 'tomato', searches: 2, noResults: 0, clicks: 1 },
            { day: '2026-11-20', query: 'tomato', searches: 1, noResults: 0, clicks: 1 },
            { day: '2026-11-20', query: 'zzz', searches: 1, noResults: 1, clicks: 0 },
            { day: '2026-11-20', query: 'basil', searches: 1, noResults: 0, clicks: 0 },
          ],
          clickDays: [
            { day: '2026-11-19', query: 'tomato', url: 'https://garden.example/tomato', clicks: 1 },
            { day: '2026-11-20', query: 'tomato', url: 'https://garden.example/tomato', clicks: 1 },
          ],
        }),
        T0,
      );
      await log.add(
        batch({
          queries: [{ query: 'tomato', count: 1, hits: 9 }],
          clicks: new Map([
            ['https://garden.example/tomato', 1],
            ['https://garden.example/basil', 1],
          ]),
          queryClicks: new Map([['basil', 1]]),
          searchDays: [{ day: '2026-11-20', query: 'basil', searches: 1, noResults: 0, clicks: 1 }],
          clickDays: [{ day: '2026-11-20', query: 'basil', url: 'https://garden.example/basil', clicks: 1 }],
        }),
        T0 + 1,
      );

      const counts = await log.counts(10);
      // Queries that found nothing are not suggestions; the latest hit count is kept.
      assert.deepEqual(counts.queries, [
        { query: 'tomato', count: 4, hits: 9 },
        { query: 'basil', count: 2, hits: 4 },
      ]);
      assert.deepEqual(
        counts.clicks,
        new Map([
          ['https://garden.example/tomato', 3],
          ['https://garden.example/basil', 1],
        ]),
      );
      assert.deepEqual(
        counts.queryClicks,
        new Map([
          ['tomato', 2],
          ['basil', 1],
        ]),
      );
      assert.deepEqual((await log.counts(1)).queries, [{ query: 'tomato', count: 4, hits: 9 }]);

      const analytics = log.analytics;
      assert.deepEqual(await analytics.days('2026-11-01', '2026-11-30'), [
        { day: '2026-11-19', searches: 2, noResults: 0, clicks: 1 },
        { day: '2026-11-20', searches: 4, noResults: 1, clicks: 2 },
      ]);
      assert.deepEqual(await analytics.queries('2026-11-19', '2026-11-20', 'searches', 10), [
        { query: 'tomato', searches: 3, noResults: 0, clicks: 2 },
        { query: 'basil', searches: 2, noResults: 0, clicks: 1 },
        { query: 'zzz', searches: 1, noResults: 1, clicks: 0 },
      ]);
      assert.deepEqual(await analytics.queries('2026-11-19', '2026-11-20', 'noResults', 10), [
        { query: 'zzz', searches: 1, noResults: 1, clicks: 0 },
      ]);
      assert.deepEqual(await analytics.clickedResults('2026-11-20', '2026-11-20', 10), [
        { query: 'basil', url: 'https://garden.example/basil', clicks: 1 },
        { query: 'tomato', url: 'https://garden.example/tomato', clicks: 1 },
      ]);
      assert.deepEqual(await allRows(analytics.rows('2026-11-19', '2026-11-20')), [
        { day: '2026-11-19', query: 'tomato', searches: 2, noResults: 0, clicks: 1 },
        { day: '2026-11-20', query: 'basil', searches: 2, noResults: 0, clicks: 1 },
        { day: '2026-11-20', query: 'tomato', searches: 1, noResults: 0, clicks: 1 },
        { day: '2026-11-20', query: 'zzz', searches: 1, noResults: 1, clicks: 0 },
      ]);
    });

    test('pruning forgets one-off queries not asked since, and days before retention', async () => {
      const log = await openLog();
      await log.add(
        batch({
          queries: [
            { query: 'once', count: 1, hits: 1 },
            { query: 'often', count: 5, hits: 1 },
          ],
          queryClicks: new Map([['once', 1]]),
          searchDays: [
            { day: '2026-08-01', query: 'once', searches: 1, noResults: 0, clicks: 1 },
            { day: '2026-11-20', query: 'often', searches: 5, noResults: 0, clicks: 0 },
          ],
          clickDays: [{ day: '2026-08-01', query: 'once', url: 'https://garden.example/', clicks: 1 }],
        }),
        T0,
      );
      await log.add(batch({ queries: [{ query: 'recent', count: 1, hits: 1 }] }), T0 + 30 * DAY_MICROS);
      await log.pruneQueries(T0 + DAY_MICROS);
      await log.pruneDays('2026-09-01');
      const counts = await log.counts(10);
      assert.deepEqual(
        counts.queries.map((entry) => entry.query),
        ['often', 'recent'],
      );
      assert.equal(counts.queryClicks.size, 0);
      assert.deepEqual(
        (await log.analytics.days('2026-01-01', '2026-12-31')).map((day) => day.day),
        ['2026-11-20'],
      );
      assert.deepEqual(await log.analytics.clickedResults('2026-01-01', '2026-12-31', 10), []);
    });
  });
}

describe('search activity on PostgreSQL: several search nodes', () => {
  test('a node reads only the entries added to since its last read, with their whole counts', async () => {
    const { store, serviceId } = await sharedStore();
    const log = store.searchActivity!.forService(serviceId);
    await log.add(
      batch({
        queries: [
          { query: 'tomato', count: 3, hits: 2 },
          { query: 'basil', count: 1, hits: 1 },
        ],
        clicks: new Map([['https://garden.example/tomato', 1]]),
        queryClicks: new Map([['tomato', 1]]),
      }),
      T0,
    );
    await log.add(
      batch({
        queries: [{ query: 'tomato', count: 2, hits: 2 }],
        clicks: new Map([['https://garden.example/basil', 4]]),
      }),
      T0 + 10_000_000,
    );
    const changed = await log.changedSince(T0 + 5_000_000, 10);
    assert.deepEqual(changed.queries, [{ query: 'tomato', count: 5, hits: 2 }]);
    assert.deepEqual(changed.clicks, new Map([['https://garden.example/basil', 4]]));
    assert.equal(changed.queryClicks.size, 0);
    assert.deepEqual((await log.changedSince(T0 + 20_000_000, 10)).queries, []);
  });

  test('nodes add to one log at once, the analytics count both, and each reads the other’s clicks', async () => {
    const { store, serviceId } = await sharedStore();
    const clock = { micros: T0, nowMicros: () => clock.micros };
    const node = async (name: string) => {
      const index = new SearchIndex(path.join(folder, `${name}.db`));
      closers.push(() => index.close());
      const log = store.searchActivity!.forService(serviceId);
      return new SearchActivity(
        index.store,
        clock,
        { timezone: 'UTC', retentionDays: 90 },
        {
          log,
          counts: await log.counts(1000),
        },
      );
    };
    const [first, second] = [await node('node-a'), await node('node-b')];
    // Many batches with the same keys at once from both nodes: no deadlock, nothing lost.
    for (let round = 0; round < 20; round++) {
      for (const activity of [first, second]) {
        activity.recordQuery('tomato', 5);
        activity.recordSearch('tomato', 5);
        activity.recordQuery('basil', 2);
        activity.recordSearch('basil', 2);
      }
      first.recordClick('https://garden.example/tomato', 'tomato');
      await Promise.all([first.flush(), second.flush()]);
    }
    second.recordClick('https://garden.example/basil', 'basil');
    await second.flush();
    const log = store.searchActivity!.forService(serviceId);
    assert.deepEqual(await log.analytics.days('2026-11-20', '2026-11-20'), [
      { day: '2026-11-20', searches: 80, noResults: 0, clicks: 21 },
    ]);
    assert.deepEqual((await log.counts(10)).queries, [
      { query: 'basil', count: 40, hits: 2 },
      { query: 'tomato', count: 40, hits: 5 },
    ]);
    // The second node has not read the first one's clicks yet; 30 s later it has.
    assert.equal(second.clicksOf('https://garden.example/tomato'), 0);
    clock.micros += 31_000_000;
    second.recordClick('https://garden.example/tomato', 'tomato');
    await second.flush();
    assert.equal(second.clicksOf('https://garden.example/tomato'), 21);
    assert.equal(first.clicksOf('https://garden.example/basil'), 0);
    // Its own click and the other node's, once it reads the log again.
    first.recordClick('https://garden.example/basil', 'basil');
    clock.micros += 31_000_000;
    await first.flush();
    assert.equal(first.clicksOf('https://garden.example/basil'), 2);
    // A node opened later starts from everything counted so far.
    const third = await node('node-c');
    assert.equal(third.clicksOf('https://garden.example/tomato'), 21);
    assert.equal(third.trackedQueries, 2);
  });

  test('a batch the store refuses is kept and written by a later flush', async () => {
    const { store, serviceId } = await sharedStore();
    const clock = { micros: T0, nowMicros: () => clock.micros };
    const index = new SearchIndex(path.join(folder, 'refused.db'));
    closers.push(() => index.close());
    const shared = store.searchActivity!.forService(serviceId);
    let refuse = true;
    const log: SearchActivityLog = {
      shared: true,
      analytics: shared.analytics,
      counts: (limit) => shared.counts(limit),
      changedSince: (since, limit) => shared.changedSince(since, limit),
      add: (entries, now) =>
        refuse ? Promise.reject(new Error('connection lost')) : shared.add(entries, now),
      pruneQueries: (before) => shared.pruneQueries(before),
      pruneDays: (day) => shared.pruneDays(day),
    };
    const activity = new SearchActivity(
      index.store,
      clock,
      { timezone: 'UTC', retentionDays: 90 },
      {
        log,
        counts: await shared.counts(10),
      },
    );
    activity.recordQuery('tomato', 5);
    activity.recordSearch('tomato', 5);
    activity.recordClick('https://garden.example/tomato', 'tomato');
    await assert.rejects(activity.flush(), /connection lost/);
    activity.recordQuery('tomato', 6);
    activity.recordSearch('tomato', 6);
    refuse = false;
    await activity.flush();
    assert.deepEqual((await shared.counts(10)).queries, [{ query: 'tomato', count: 2, hits: 6 }]);
    assert.deepEqual(await shared.analytics.days('2026-11-20', '2026-11-20'), [
      { day: '2026-11-20', searches: 2, noResults: 0, clicks: 1 },
    ]);
    assert.deepEqual((await shared.counts(10)).clicks, new Map([['https://garden.example/tomato', 1]]));
  });
});
