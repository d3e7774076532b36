/**
 * Per-day search analytics (docs/design/search-engine.md, Search activity) against a real index
 * file: searches with and without results and clicks are counted per normalized query and per day
 * in the service time zone, reach the file on flush, are read back per day, per query and per
 * clicked result, days older than the retention are removed, and counts another process's write
 * lock held back are written by a later flush.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { SearchIndex } from '../../src/search/search-index.js';
import { SearchActivity } from '../../src/search/site/search-activity.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-analytics-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const clock = {
  micros: Date.parse('2026-11-25T14:30:00Z') * 1000,
  nowMicros() {
    return this.micros;
  },
};
const at = (iso: string) => {
  clock.micros = Date.parse(iso) * 1000;
};

describe('search analytics', () => {
  test('counts per day in the service time zone, per normalized query, with clicks and no-result searches', async () => {
    const index = new SearchIndex(path.join(folder, 'a.db'));
    const analytics = new SearchActivity(index.store, clock, { timezone: 'Asia/Tokyo', retentionDays: 90 });
    const store = index.store.analytics;
    // 14:30 UTC is 23:30 in Tokyo: still the 25th there.
    at('2026-11-25T14:30:00Z');
    analytics.recordSearch('Tomato', 12);
    analytics.recordSearch('ｔｏｍａｔｏ', 12);
    analytics.recordSearch('zzz', 0);
    analytics.recordClick('https://garden.example/tomato', 'tomato');
    // 15:30 UTC is 00:30 on the 26th in Tokyo.
    at('2026-11-25T15:30:00Z');
    analytics.recordSearch('tomato', 3);
    analytics.recordSearch('   ', 0);
    await analytics.flush();

    assert.deepEqual(store.days('2026-11-01', '2026-11-30'), [
      { day: '2026-11-25', searches: 3, noResults: 1, clicks: 1 },
      { day: '2026-11-26', searches: 1, noResults: 0, clicks: 0 },
    ]);
    assert.deepEqual(store.queries('2026-11-25', '2026-11-26', 'searches', 10), [
      { query: 'tomato', searches: 3, noResults: 0, clicks: 1 },
      { query: 'zzz', searches: 1, noResults: 1, clicks: 0 },
    ]);
    assert.deepEqual(store.queries('2026-11-25', '2026-11-26', 'noResults', 10), [
      { query: 'zzz', searches: 1, noResults: 1, clicks: 0 },
    ]);
    assert.deepEqual(store.clickedResults('2026-11-25', '2026-11-25', 10), [
      { query: 'tomato', url: 'https://garden.example/tomato', clicks: 1 },
    ]);
    // A second flush adds to the same rows.
    analytics.recordSearch('tomato', 3);
    await analytics.flush();
    assert.equal(store.days('2026-11-26', '2026-11-26')[0]!.searches, 2);
    index.close();
  });

  test('days older than the retention are removed', async () => {
    const index = new SearchIndex(path.join(folder, 'b.db'));
    const store = index.store.analytics;
    at('2026-11-01T03:00:00Z');
    const analytics = new SearchActivity(index.store, clock, { timezone: 'UTC', retentionDays: 7 });
    analytics.recordSearch('old', 1);
    await analytics.flush();
    at('2026-11-10T03:00:00Z');
    analytics.recordSearch('new', 1);
    // The first flush pruned at 11-01; an hour later it prunes again.
    at('2026-11-10T05:00:00Z');
    await analytics.flush();
    assert.deepEqual(
      store.days('2026-10-01', '2026-11-30').map((day) => day.day),
      ['2026-11-10'],
    );
    index.close();
  });

  test('counts held back by another process holding the write lock are written by a later flush', async () => {
    const file = path.join(folder, 'c.db');
    const index = new SearchIndex(file);
    at('2026-11-20T09:00:00Z');
    const activity = new SearchActivity(index.store, clock, { timezone: 'UTC', retentionDays: 90 });
    activity.recordQuery('tomato', 4);
    activity.recordSearch('tomato', 4);
    activity.recordClick('https://garden.example/tomato', 'tomato');
    // Another process (kumo index) holds the write lock: the flush gives up at once, keeping the counts.
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    await activity.flush();
    activity.recordSearch('tomato', 4);
    other.exec('COMMIT');
    other.close();
    await activity.flush();
    assert.deepEqual(index.store.analytics.days('2026-11-20', '2026-11-20'), [
      { day: '2026-11-20', searches: 2, noResults: 0, clicks: 1 },
    ]);
    assert.deepEqual(index.store.queryLog(10), [{ query: 'tomato', count: 1, hits: 4 }]);
    assert.deepEqual(index.store.clickCounts(), new Map([['https://garden.example/tomato', 1]]));
    index.close();
  });
});
