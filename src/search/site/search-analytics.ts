import { luxon, type Clock } from '../../util/index.js';
import type { ClickDayCount, SearchDayCount } from '../../store/index.js';
import { suggestionKey } from './suggester.js';

/** How the per-day analytics of a search service are kept (docs/design/search-engine.md, Search
 * activity).
 */
export interface AnalyticsOptions {
  /** IANA zone whose dates the days are. */
  timezone: string;
  /** Days kept; older ones are removed about once an hour. */
  retentionDays: number;
}

const PRUNE_INTERVAL_MS = 3600_000;

/**
 * Counts the searches (the first page of each, with or without results) and clicks of a search
 * service per normalized query and day, in memory; SearchActivity takes the counts every second
 * and adds them to the service's log with the rest of the search activity, so no search waits
 * for a write.
 */
export class SearchAnalytics {
  private pendingSearches = new Map<string, SearchDayCount>();
  private pendingClicks = new Map<string, ClickDayCount>();
  private prunedMs = 0;
  /** Today's date and its span: a search computes no date while the day lasts. */
  private day = { date: '', startsMs: 0, endsMs: 0 };

  constructor(
    private readonly clock: Clock,
    private readonly options: AnalyticsOptions,
  ) {}

  recordSearch(query: string, hits: number): void {
    const key = suggestionKey(query);
    if (key === '') return;
    const entry = this.searchEntry(this.today(), key);
    entry.searches += 1;
    if (hits === 0) entry.noResults += 1;
  }

  recordClick(url: string, query: string): void {
    const key = suggestionKey(query);
    const day = this.today();
    if (key !== '') this.searchEntry(day, key).clicks += 1;
    const clickKey = `${day}\u0000${key}\u0000${url}`;
    const entry = this.pendingClicks.get(clickKey) ?? { day, query: key, url, clicks: 0 };
    entry.clicks += 1;
    this.pendingClicks.set(clickKey, entry);
  }

  /** Whether counts wait to be taken. */
  get pending(): boolean {
    return this.pendingSearches.size > 0 || this.pendingClicks.size > 0;
  }

  /** The counts since the last take, handed over (restore them if they cannot be written). */
  take(): { searchDays: SearchDayCount[]; clickDays: ClickDayCount[] } {
    const taken = {
      searchDays: [...this.pendingSearches.values()],
      clickDays: [...this.pendingClicks.values()],
    };
    this.pendingSearches = new Map();
    this.pendingClicks = new Map();
    return taken;
  }

  /** Counts taken but not written: they are added to those counted since. */
  restore(taken: { searchDays: readonly SearchDayCount[]; clickDays: readonly ClickDayCount[] }): void {
    for (const entry of taken.searchDays) {
      const pending = this.searchEntry(entry.day, entry.query);
      pending.searches += entry.searches;
      pending.noResults += entry.noResults;
      pending.clicks += entry.clicks;
    }
    for (const entry of taken.clickDays) {
      const key = `${entry.day}\u0000${entry.query}\u0000${entry.url}`;
      const pending = this.pendingClicks.get(key) ?? { ...entry, clicks: 0 };
      pending.clicks += entry.clicks;
      this.pendingClicks.set(key, pending);
    }
  }

  /** The next prune comes an hour from now. */
  deferPrune(): void {
    this.prunedMs = this.clock.nowMicros() / 1000;
  }

  /** About once an hour, the first day retention keeps (older days are to be removed); else undefined. */
  pruneDue(): string | undefined {
    const nowMs = this.clock.nowMicros() / 1000;
    if (nowMs - this.prunedMs < PRUNE_INTERVAL_MS) return undefined;
    this.prunedMs = nowMs;
    return this.dayOf(nowMs - this.options.retentionDays * 86_400_000);
  }

  /** The service's date today (the analytics' day). */
  today(): string {
    const nowMs = this.clock.nowMicros() / 1000;
    if (nowMs < this.day.startsMs || nowMs >= this.day.endsMs) {
      const now = luxon().DateTime.fromMillis(nowMs, { zone: this.options.timezone });
      this.day = {
        date: now.toISODate() ?? '1970-01-01',
        startsMs: now.startOf('day').toMillis(),
        endsMs: now.endOf('day').toMillis() + 1,
      };
    }
    return this.day.date;
  }

  private dayOf(ms: number): string {
    return luxon().DateTime.fromMillis(ms, { zone: this.options.timezone }).toISODate() ?? '1970-01-01';
  }

  private searchEntry(day: string, query: string): SearchDayCount {
    const key = `${day}\u0000${query}`;
    let entry = this.pendingSearches.get(key);
    if (entry === undefined) {
      entry = { day, query, searches: 0, noResults: 0, clicks: 0 };
      this.pendingSearches.set(key, entry);
    }
    return entry;
  }
}
