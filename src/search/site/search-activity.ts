import type { SearchIndexStore } from '../../store/sqlite/search-index-store.js';
import type { Clock } from '../../util/clock.js';
import type { IndexSnapshot } from '../search-index-types.js';
import type { TemplateBlocks } from '../template-blocks.js';
import { PhraseCounter } from './phrase-counts.js';
import { PhraseReadings } from './phrase-readings.js';
import { Suggester, suggestionKey } from './suggester.js';
import type { Vocabulary } from './vocabulary.js';

const PRUNE_INTERVAL_MICROS = 3600 * 1_000_000;
const ONE_OFF_QUERY_KEPT_MICROS = 90 * 24 * 3600 * 1_000_000;
/** Distinct queries held in memory at most. */
const MAX_TRACKED_QUERIES = 200_000;
/** New queries reach suggestions within this time: rebuilding the suggester costs a full sort. */
const SUGGESTER_REFRESH_MS = 10_000;

/** What a suggester is built from besides what visitors did: the index, as of one snapshot. */
export interface SuggestIndexSources {
  vocabulary: () => Vocabulary;
  templateBlocks: () => TemplateBlocks;
}

/**
 * What visitors do on a search service: successful queries (they feed suggest), clicks per URL
 * (they feed `click desc`) and clicks per query (they feed suggest). All are counted in memory and
 * written to the index file by `flush`, which the service calls every second, so a search never
 * waits for a disk write or for another process holding the write lock.
 */
export class SearchActivity {
  private readonly queries: Map<string, number>;
  private readonly clicks: Map<string, number>;
  /** Clicks per normalized query, for the queries held in `queries` only. */
  private readonly queryClicks: Map<string, number>;
  private pendingQueries = new Map<string, { count: number; hits: number }>();
  private pendingClicks = new Map<string, number>();
  private pendingQueryClicks = new Map<string, number>();
  private readonly phraseCounter: PhraseCounter;
  private readonly readings: PhraseReadings;
  private suggesterState:
    { suggester: Suggester; segments: IndexSnapshot['segments']; builtMs: number } | undefined;
  private queriesChanged = false;
  private prunedMicros = 0;

  constructor(
    private readonly store: SearchIndexStore,
    private readonly clock: Clock,
  ) {
    this.queries = new Map(store.queryLog(MAX_TRACKED_QUERIES).map((entry) => [entry.query, entry.count]));
    this.clicks = store.clickCounts();
    this.queryClicks = new Map(
      [...store.queryClickCounts(MAX_TRACKED_QUERIES)].filter(([query]) => this.queries.has(query)),
    );
    this.phraseCounter = new PhraseCounter(store);
    this.readings = new PhraseReadings(store, (message) => process.emitWarning(message));
  }

  /** Counts a query that found documents (by its normalized text). */
  recordQuery(query: string, hits: number): void {
    const key = suggestionKey(query);
    if (key === '') return;
    this.queries.set(key, (this.queries.get(key) ?? 0) + 1);
    if (this.queries.size > MAX_TRACKED_QUERIES) this.forgetRarestQueries();
    const pending = this.pendingQueries.get(key) ?? { count: 0, hits };
    this.pendingQueries.set(key, { count: pending.count + 1, hits });
    this.queriesChanged = true;
  }

  /**
   * Keeps memory bounded whatever visitors type: the queries asked least often are dropped from
   * memory (the log in the index file keeps their counts) until a fifth of the room is free.
   */
  private forgetRarestQueries(): void {
    const target = Math.floor(MAX_TRACKED_QUERIES * 0.8);
    for (let count = 1; this.queries.size > target; count += 1) {
      for (const [key, asked] of this.queries) {
        if (asked <= count) {
          this.queries.delete(key);
          this.queryClicks.delete(key);
        }
        if (this.queries.size <= target) break;
      }
    }
    this.queriesChanged = true;
  }

  /** Counts a click on a result, for its URL and for the query it was found with (normalized). */
  recordClick(url: string, query: string): void {
    this.clicks.set(url, (this.clicks.get(url) ?? 0) + 1);
    this.pendingClicks.set(url, (this.pendingClicks.get(url) ?? 0) + 1);
    const key = suggestionKey(query);
    if (key === '') return;
    this.pendingQueryClicks.set(key, (this.pendingQueryClicks.get(key) ?? 0) + 1);
    if (!this.queries.has(key)) return;
    this.queryClicks.set(key, (this.queryClicks.get(key) ?? 0) + 1);
    this.queriesChanged = true;
  }

  /** Distinct queries held in memory (bounded). */
  get trackedQueries(): number {
    return this.queries.size;
  }

  clicksOf(url: string): number {
    return this.clicks.get(url) ?? 0;
  }

  /**
   * The suggester, rebuilt when the index changed, when readings of new phrases came, or, at most
   * every few seconds, when new queries or clicks came.
   */
  suggester(snapshot: IndexSnapshot, index: SuggestIndexSources): Suggester {
    const nowMs = this.clock.nowMicros() / 1000;
    const state = this.suggesterState;
    const stale =
      state === undefined ||
      state.segments !== snapshot.segments ||
      this.readings.takeFresh() ||
      (this.queriesChanged && nowMs - state.builtMs >= SUGGESTER_REFRESH_MS);
    if (!stale) return state.suggester;
    this.queriesChanged = false;
    const { phrases, template } = this.phraseCounter.count(snapshot, index.templateBlocks());
    const suggester = new Suggester({
      queryCounts: this.queries,
      queryClicks: this.queryClicks,
      phrases,
      template,
      readings: this.readings.readingsOf(phrases.keys()),
      vocabulary: index.vocabulary(),
    });
    this.suggesterState = { suggester, segments: snapshot.segments, builtMs: nowMs };
    return suggester;
  }

  /** Resolves when the readings of the phrases seen so far are in (the next suggester uses them). */
  async readingsSettled(): Promise<void> {
    await this.readings.settled();
  }

  /** Once an hour, drops from the index file the queries asked (or clicked from) once and not for 90 days. */
  private pruneNowAndThen(): void {
    const nowMicros = this.clock.nowMicros();
    if (nowMicros - this.prunedMicros < PRUNE_INTERVAL_MICROS) return;
    this.prunedMicros = nowMicros;
    try {
      this.store.withoutWaiting(() => this.store.pruneQueryLog(nowMicros - ONE_OFF_QUERY_KEPT_MICROS));
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    }
  }

  /**
   * Writes what was counted since the last flush. When another process holds the write lock the
   * counts stay pending for the next flush instead of blocking searches.
   */
  flush(): void {
    this.pruneNowAndThen();
    this.readings.flush();
    if (this.pendingQueries.size === 0 && this.pendingClicks.size === 0 && this.pendingQueryClicks.size === 0)
      return;
    const queries = this.pendingQueries;
    const clicks = this.pendingClicks;
    const queryClicks = this.pendingQueryClicks;
    try {
      this.store.withoutWaiting(() => {
        const nowMicros = this.clock.nowMicros();
        const queryEntries = [...queries].map(([query, entry]) => ({
          query,
          count: entry.count,
          hits: entry.hits,
        }));
        this.store.logActivity(queryEntries, clicks, nowMicros, queryClicks);
      });
      this.pendingQueries = new Map();
      this.pendingClicks = new Map();
      this.pendingQueryClicks = new Map();
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    }
  }
}
