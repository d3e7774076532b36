import {
  type ActivityBatch,
  type ActivityCounts,
  isEmptyBatch,
  type SearchActivityLog,
  type SearchAnalyticsReader,
} from '../../store/index.js';
import { IndexFileActivityLog } from '../storage/index-file-activity-log.js';
import type { SearchIndexStore } from '../storage/search-index-store.js';
import { type AnalyticsOptions, SearchAnalytics } from './search-analytics.js';
import type { Clock } from '../../util/index.js';
import type { IndexSnapshot } from '../search-index-types.js';
import type { TemplateBlocks } from '../template-blocks.js';
import { PhraseCounter } from './phrase-counts.js';
import { PhraseReadings } from './phrase-readings.js';
import { PrefixTable } from './prefix-table.js';
import { IndexCompletions, offeredPhrases, queryCompletions, Suggester, suggestionKey } from './suggester.js';
import type { Vocabulary } from './vocabulary.js';
import { runInSlices, runNow, type Work } from './work-slices.js';

const PRUNE_INTERVAL_MICROS = 3600 * 1_000_000;
const ONE_OFF_QUERY_KEPT_MICROS = 90 * 24 * 3600 * 1_000_000;
/** Distinct queries held in memory at most (and read from the log when a service is opened). */
export const MAX_TRACKED_QUERIES = 200_000;
/** A search node reads what the other nodes counted this often, when the log is shared. */
const SHARED_RELOAD_MS = 30_000;
/**
 * Entries are read again from this long before the previous read: the times are the adding
 * nodes' clocks, which may lag, and an entry read twice is only set to its count again.
 */
const RELOAD_OVERLAP_MICROS = 60_000_000;
/** New queries reach suggestions within this time: rebuilding the suggester costs a full sort. */
const SUGGESTER_REFRESH_MS = 10_000;
/**
 * Up to this many live documents (and logged queries) a suggester is built at once, on the
 * request that finds it stale (some 50 ms at most); above, it is built in the background in
 * slices while requests get the previous one (docs/design/search-engine.md, Suggest).
 */
export const BUILD_AT_ONCE_DOCUMENTS = 2000;
const BUILD_AT_ONCE_QUERIES = 20_000;

/** What a suggester is built from besides what visitors did: the index, as of one snapshot. */
export interface SuggestIndexSources {
  /** The vocabulary of the snapshot, as work in slices (vocabulary.ts). */
  vocabulary: () => Work<Vocabulary>;
  /** The template lines as they stand when the phrases are counted. */
  templateBlocks: () => TemplateBlocks;
}

/** Where a service's activity is kept, and what it held when the service was opened. */
export interface ActivitySource {
  log: SearchActivityLog;
  counts: ActivityCounts;
}

/**
 * What visitors do on a search service: successful queries (they feed suggest), clicks per URL
 * (they feed `click desc`) and clicks per query (they feed suggest). All are counted in memory and
 * added to the service's log (docs/design/search-engine.md, Search activity) by `flush`, which the
 * service calls every second, so a search never waits for a write or for another process holding
 * the write lock. With a shared log, what the other search nodes counted is read every 30 s.
 */
export class SearchActivity {
  private readonly queries = new Map<string, number>();
  private readonly clicks = new Map<string, number>();
  /** Counts up each time a URL's clicks change, so that what is derived from them is kept till then. */
  private clickChanges = 0;
  /** Clicks per normalized query, for the queries held in `queries` only. */
  private readonly queryClicks = new Map<string, number>();
  private pendingQueries = new Map<string, { count: number; hits: number }>();
  private pendingClicks = new Map<string, number>();
  private pendingQueryClicks = new Map<string, number>();
  private readonly phraseCounter: PhraseCounter;
  private readonly readings: PhraseReadings;
  /** The completions of the index, and the segments they were counted over. */
  private indexPart: { completions: IndexCompletions; segments: IndexSnapshot['segments'] } | undefined;
  /** The completions of past queries, and when they were built. */
  private queryPart: { table: PrefixTable; builtMs: number } | undefined;
  private current: Suggester | undefined;
  /** The build running in the background, if any: one at a time. */
  private building: Promise<void> | undefined;
  /** Readings came since the index part was built: it is built again. */
  private readingsChanged = false;
  private queriesChanged = false;
  private prunedMicros = 0;
  private readonly log: SearchActivityLog;
  private reloadedMs: number;
  /** Flushes one after the other: a batch is written before the next is taken. */
  private flushed: Promise<void> = Promise.resolve();

  /** Searches and clicks per day for the console's analytics; none for `kumo search`. */
  private readonly analytics: SearchAnalytics | undefined;

  /** `source` is the service's log; by default the index file's own. */
  constructor(
    private readonly store: SearchIndexStore,
    private readonly clock: Clock,
    analytics?: AnalyticsOptions,
    source?: ActivitySource,
  ) {
    this.analytics = analytics && new SearchAnalytics(clock, analytics);
    const local = source === undefined ? new IndexFileActivityLog(store) : undefined;
    this.log = source?.log ?? local!;
    const counts = source?.counts ?? local!.countsNow(MAX_TRACKED_QUERIES);
    this.merge(counts);
    this.reloadedMs = clock.nowMicros() / 1000;
    if (this.log.shared) {
      // Every node prunes a shared log hourly: one opening a service (or a newer generation of it)
      // waits its hour rather than pruning at once.
      this.prunedMicros = clock.nowMicros();
      this.analytics?.deferPrune();
    }
    this.phraseCounter = new PhraseCounter(store);
    this.readings = new PhraseReadings(store, (message) => process.emitWarning(message));
  }

  /**
   * Entries read from the log (all of it when the service opens, then those changed since the last
   * read): their counts as kept (every node's), with what this process counted and has not written
   * yet added; the other entries stay as held.
   */
  private merge(changed: ActivityCounts): void {
    for (const entry of changed.queries)
      this.queries.set(entry.query, entry.count + (this.pendingQueries.get(entry.query)?.count ?? 0));
    for (const [url, count] of changed.clicks)
      this.clicks.set(url, count + (this.pendingClicks.get(url) ?? 0));
    if (changed.clicks.size > 0) this.clickChanges += 1;
    for (const [query, count] of changed.queryClicks)
      if (this.queries.has(query))
        this.queryClicks.set(query, count + (this.pendingQueryClicks.get(query) ?? 0));
    if (this.queries.size > MAX_TRACKED_QUERIES) this.forgetRarestQueries();
    if (changed.queries.length > 0 || changed.queryClicks.size > 0) this.queriesChanged = true;
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

  /** Counts the first page of a search, with or without results, for the analytics. */
  recordSearch(query: string, hits: number): void {
    this.analytics?.recordSearch(query, hits);
  }

  /** Counts a click on a result, for its URL and for the query it was found with (normalized). */
  recordClick(url: string, query: string): void {
    this.analytics?.recordClick(url, query);
    this.clicks.set(url, (this.clicks.get(url) ?? 0) + 1);
    this.clickChanges += 1;
    this.pendingClicks.set(url, (this.pendingClicks.get(url) ?? 0) + 1);
    const key = suggestionKey(query);
    if (key === '') return;
    this.pendingQueryClicks.set(key, (this.pendingQueryClicks.get(key) ?? 0) + 1);
    if (!this.queries.has(key)) return;
    this.queryClicks.set(key, (this.queryClicks.get(key) ?? 0) + 1);
    this.queriesChanged = true;
  }

  /** Whether counts wait to be written (a flush found the log busy, or none ran since). */
  get pending(): boolean {
    return (
      this.pendingQueries.size > 0 ||
      this.pendingClicks.size > 0 ||
      this.pendingQueryClicks.size > 0 ||
      this.analytics?.pending === true
    );
  }

  /** What the console reads of the per-day analytics, from the service's log. */
  get analyticsLog(): SearchAnalyticsReader {
    return this.log.analytics;
  }

  /** The counts held in memory, what was not written yet included (a newer generation starts from them). */
  heldCounts(): ActivityCounts {
    return {
      queries: [...this.queries].map(([query, count]) => ({ query, count, hits: 1 })),
      clicks: new Map(this.clicks),
      queryClicks: new Map(this.queryClicks),
    };
  }

  /** Distinct queries held in memory (bounded). */
  get trackedQueries(): number {
    return this.queries.size;
  }

  clicksOf(url: string): number {
    return this.clicks.get(url) ?? 0;
  }

  /** Every clicked URL with its count (a sort by clicks looks them up by document). */
  clickedUrls(): IterableIterator<[string, number]> {
    return this.clicks.entries();
  }

  /** A number that changes whenever clickedUrls would give other counts. */
  get clicksVersion(): number {
    return this.clickChanges;
  }

  /**
   * The suggester (docs/design/search-engine.md, Suggest): its index part is built again when the
   * index changed or readings of new phrases came, its query part at most every few seconds when
   * new queries or clicks came. A small index is built at once; a large one in the background, in
   * slices, while this returns the previous suggester. Before the first build of a large index is
   * done, it offers past queries only (their part is built first, and quickly).
   */
  suggester(snapshot: IndexSnapshot, index: SuggestIndexSources): Suggester {
    this.refresh(snapshot, index, true);
    return this.composed();
  }

  /**
   * When an index is opened: the first suggester of a large index is built now, in the
   * background; a small one waits for the first request, which builds it at once.
   */
  prepare(snapshot: IndexSnapshot, index: SuggestIndexSources): void {
    this.refresh(snapshot, index, false);
  }

  private refresh(snapshot: IndexSnapshot, index: SuggestIndexSources, buildSmall: boolean): void {
    if (this.building === undefined) {
      const nowMs = this.clock.nowMicros() / 1000;
      if (this.readings.takeFresh()) this.readingsChanged = true;
      const indexStale =
        this.indexPart === undefined || this.indexPart.segments !== snapshot.segments || this.readingsChanged;
      const queriesStale =
        this.queryPart === undefined ||
        (this.queriesChanged && nowMs - this.queryPart.builtMs >= SUGGESTER_REFRESH_MS);
      const small =
        snapshot.statistics.documentCount <= BUILD_AT_ONCE_DOCUMENTS &&
        this.queries.size <= BUILD_AT_ONCE_QUERIES;
      if (small) {
        if (!buildSmall) return;
        if (queriesStale) this.queryPart = { table: runNow(this.queryWork()), builtMs: nowMs };
        if (indexStale)
          this.indexPart = {
            completions: runNow(this.indexWork(snapshot, index)),
            segments: snapshot.segments,
          };
      } else if (indexStale || queriesStale) {
        this.building = this.buildInBackground(snapshot, index, indexStale, queriesStale);
      }
    }
  }

  /** Resolves when no suggester is being built in the background. */
  async built(): Promise<void> {
    while (this.building !== undefined) await this.building;
  }

  /** Whether the background build or the readings were still at work (now waited for). */
  async waitForWork(): Promise<boolean> {
    if (this.building !== undefined) {
      await this.built();
      return true;
    }
    return this.readings.settleIfRunning();
  }

  private composed(): Suggester {
    const index = this.indexPart?.completions ?? IndexCompletions.none;
    const queries = this.queryPart?.table ?? PrefixTable.empty;
    if (this.current === undefined || this.current.index !== index || this.current.queries !== queries)
      this.current = new Suggester(index, queries);
    return this.current;
  }

  private async buildInBackground(
    snapshot: IndexSnapshot,
    index: SuggestIndexSources,
    indexStale: boolean,
    queriesStale: boolean,
  ): Promise<void> {
    try {
      if (queriesStale) {
        const table = await runInSlices(this.queryWork(), () => !this.store.open);
        this.queryPart = { table, builtMs: this.clock.nowMicros() / 1000 };
      }
      if (indexStale) {
        const completions = await runInSlices(this.indexWork(snapshot, index), () => !this.store.open);
        this.indexPart = { completions, segments: snapshot.segments };
      }
    } catch (error) {
      // A service whose index was closed meanwhile stops here; anything else keeps the
      // previous suggester and is tried again on the next request.
      if (this.store.open)
        process.emitWarning(
          `suggest kept its previous completions: ${error instanceof Error ? error.message : String(error)}`,
        );
    } finally {
      this.building = undefined;
    }
  }

  private queryWork(): Work<PrefixTable> {
    this.queriesChanged = false;
    return queryCompletions({ queryCounts: this.queries, queryClicks: this.queryClicks });
  }

  private *indexWork(snapshot: IndexSnapshot, index: SuggestIndexSources): Work<IndexCompletions> {
    this.readingsChanged = false;
    const counted = yield* this.phraseCounter.count(snapshot, index.templateBlocks());
    const vocabulary = yield* index.vocabulary();
    const phrasePoints = yield* offeredPhrases(counted, vocabulary.documentCount);
    const readings = yield* this.readings.readingsOf(phrasePoints.keys());
    return yield* IndexCompletions.of({ phrasePoints, template: counted.template, readings, vocabulary });
  }

  /**
   * Writes what was counted since the last flush, after the previous flush. When the log cannot
   * take it (another process holds the index file's write lock, or the shared store is away) the
   * counts stay pending for the next flush instead of holding up searches; an error other than a
   * busy file is thrown after that.
   */
  flush(): Promise<void> {
    const next = this.flushed.then(() => this.writePending());
    this.flushed = next.catch(() => undefined);
    return next;
  }

  private async writePending(): Promise<void> {
    this.readings.flush();
    const nowMicros = this.clock.nowMicros();
    await this.pruneNowAndThen(nowMicros);
    const batch = this.takePending();
    if (!isEmptyBatch(batch)) {
      try {
        await this.log.add(batch, nowMicros);
      } catch (error) {
        this.restorePending(batch);
        if (!isBusy(error)) throw error;
      }
    }
    if (this.log.shared && nowMicros / 1000 - this.reloadedMs >= SHARED_RELOAD_MS) {
      const since = this.reloadedMs * 1000 - RELOAD_OVERLAP_MICROS;
      this.reloadedMs = nowMicros / 1000;
      this.merge(await this.log.changedSince(since, MAX_TRACKED_QUERIES));
    }
  }

  /**
   * Once an hour: drops the queries asked (or clicked from) once and not for 90 days, and the
   * analytics days older than their retention.
   */
  private async pruneNowAndThen(nowMicros: number): Promise<void> {
    const day = this.analytics?.pruneDue();
    const queries = nowMicros - this.prunedMicros >= PRUNE_INTERVAL_MICROS;
    if (queries) this.prunedMicros = nowMicros;
    try {
      if (queries) await this.log.pruneQueries(nowMicros - ONE_OFF_QUERY_KEPT_MICROS);
      if (day !== undefined) await this.log.pruneDays(day);
    } catch (error) {
      if (!isBusy(error)) throw error;
    }
  }

  private takePending(): ActivityBatch {
    const days = this.analytics?.take() ?? { searchDays: [], clickDays: [] };
    const batch: ActivityBatch = {
      queries: [...this.pendingQueries].map(([query, entry]) => ({
        query,
        count: entry.count,
        hits: entry.hits,
      })),
      clicks: this.pendingClicks,
      queryClicks: this.pendingQueryClicks,
      ...days,
    };
    this.pendingQueries = new Map();
    this.pendingClicks = new Map();
    this.pendingQueryClicks = new Map();
    return batch;
  }

  /** A batch the log refused: its counts join those counted since, for the next flush. */
  private restorePending(batch: ActivityBatch): void {
    for (const entry of batch.queries) {
      const pending = this.pendingQueries.get(entry.query);
      // Counted since: its hits are the newer ones.
      this.pendingQueries.set(entry.query, {
        count: entry.count + (pending?.count ?? 0),
        hits: pending?.hits ?? entry.hits,
      });
    }
    for (const [url, count] of batch.clicks)
      this.pendingClicks.set(url, (this.pendingClicks.get(url) ?? 0) + count);
    for (const [query, count] of batch.queryClicks)
      this.pendingQueryClicks.set(query, (this.pendingQueryClicks.get(query) ?? 0) + count);
    this.analytics?.restore(batch);
  }
}

/** Another process holds the index file's write lock. */
function isBusy(error: unknown): boolean {
  return (error as { code?: string }).code === 'SQLITE_BUSY';
}
