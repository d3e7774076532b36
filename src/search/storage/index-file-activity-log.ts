import type {
  ActivityBatch,
  ActivityCounts,
  SearchActivityLog,
  SearchAnalyticsReader,
  SearchDayCount,
} from '../../store/index.js';
import type { SearchIndexStore } from './search-index-store.js';

/**
 * The search activity of a service kept in its own index file, on one machine
 * (docs/design/search-engine.md, Search activity). Statements run at the call, as SQLite's do; a
 * write gives up at once when another process holds the file's write lock (SQLITE_BUSY), so the
 * caller keeps its counts for the next flush instead of holding up searches.
 */
export class IndexFileActivityLog implements SearchActivityLog {
  readonly shared = false;
  readonly analytics: SearchAnalyticsReader;

  constructor(private readonly store: SearchIndexStore) {
    const days = store.analytics;
    this.analytics = {
      days: (from, to) => Promise.resolve(days.days(from, to)),
      queries: (from, to, order, limit) => Promise.resolve(days.queries(from, to, order, limit)),
      clickedResults: (from, to, limit) => Promise.resolve(days.clickedResults(from, to, limit)),
      // Read whole: a statement left iterating across turns of the event loop would keep the
      // connection busy for every search in between.
      rows: (from, to) => asyncRows([...days.rows(from, to)]),
    };
  }

  /** Read at the call: an index file's log is this process's alone to add to. */
  countsNow(limit: number): ActivityCounts {
    return {
      queries: this.store.queryLog(limit),
      clicks: this.store.clickCounts(),
      queryClicks: this.store.queryClickCounts(limit),
    };
  }

  counts(limit: number): Promise<ActivityCounts> {
    return Promise.resolve(this.countsNow(limit));
  }

  /** The whole log: no other process adds to it, so this is never needed for what others did. */
  changedSince(_sinceMicros: number, limit: number): Promise<ActivityCounts> {
    return this.counts(limit);
  }

  add(batch: ActivityBatch, nowMicros: number): Promise<void> {
    return settled(() => this.store.withoutWaiting(() => this.store.logActivity(batch, nowMicros)));
  }

  pruneQueries(beforeMicros: number): Promise<void> {
    return settled(() => this.store.withoutWaiting(() => this.store.pruneQueryLog(beforeMicros)));
  }

  pruneDays(day: string): Promise<void> {
    return settled(() => this.store.withoutWaiting(() => this.store.analytics.pruneBefore(day)));
  }
}

/** Runs `work` now, its outcome as a promise (a throw becomes a rejection). */
function settled(work: () => void): Promise<void> {
  try {
    work();
    return Promise.resolve();
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

async function* asyncRows(rows: readonly SearchDayCount[]): AsyncIterable<SearchDayCount> {
  yield* rows;
}
