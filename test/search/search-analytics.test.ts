/**
 * Per-day search analytics (docs/architecture.md, Search analytics) against a real SQLite file:
 * searches with and without results and clicks are counted per normalized query and per day in
 * the service time zone, reach the file on flush, are read back per day, per query and per
 * clicked result, and days older than the retention are removed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { SearchAnalytics } from '../../src/search/site/search-analytics.js';
import { SearchAnalyticsStore } from '../../src/store/sqlite/search-analytics-store.js';

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
  test('counts per day in the service time zone, per normalized query, with clicks and no-result searches', () => {
    const db = new Database(path.join(folder, 'a.db'));
    const store = new SearchAnalyticsStore(db);
    const analytics = new SearchAnalytics(store, clock, { timezone: 'Asia/Tokyo', retentionDays: 90 });
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
    analytics.flush();

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
    analytics.flush();
    assert.equal(store.days('2026-11-26', '2026-11-26')[0]!.searches, 2);
    db.close();
  });

  test('days older than the retention are removed', () => {
    const db = new Database(path.join(folder, 'b.db'));
    const store = new SearchAnalyticsStore(db);
    at('2026-11-01T03:00:00Z');
    const analytics = new SearchAnalytics(store, clock, { timezone: 'UTC', retentionDays: 7 });
    analytics.recordSearch('old', 1);
    analytics.flush();
    at('2026-11-10T03:00:00Z');
    analytics.recordSearch('new', 1);
    // The first flush pruned at 11-01; an hour later it prunes again.
    at('2026-11-10T05:00:00Z');
    analytics.flush();
    assert.deepEqual(
      store.days('2026-10-01', '2026-11-30').map((day) => day.day),
      ['2026-11-10'],
    );
    db.close();
  });
});
