import type {
  ClickDayCount,
  ClickedResult,
  DayTotals,
  QueryTotals,
  SearchDayCount,
} from './search-analytics.js';

/** A normalized query that found documents: how often it was asked, and its latest hit count. */
export interface QueryLogEntry {
  query: string;
  count: number;
  hits: number;
}

/** What visitors did on a search service, as kept: read once when the service is opened. */
export interface ActivityCounts {
  /** The most asked queries that found documents, most asked first. */
  queries: QueryLogEntry[];
  /** Clicks per result URL. */
  clicks: Map<string, number>;
  /** Clicks per normalized query, the most clicked. */
  queryClicks: Map<string, number>;
}

/** What one process counted since its last flush, added to the log at once. */
export interface ActivityBatch {
  queries: readonly QueryLogEntry[];
  clicks: ReadonlyMap<string, number>;
  queryClicks: ReadonlyMap<string, number>;
  searchDays: readonly SearchDayCount[];
  clickDays: readonly ClickDayCount[];
}

/** What the console reads of a service's per-day analytics (docs/design/search-engine.md, Search
 * activity).
 */
export interface SearchAnalyticsReader {
  /** Totals per day with any search or click, from `from` to `to` inclusive, oldest first. */
  days(from: string, to: string): Promise<DayTotals[]>;
  /** Queries by searches (or by searches without results), most first. */
  queries(from: string, to: string, order: 'searches' | 'noResults', limit: number): Promise<QueryTotals[]>;
  /** Results by clicks, most first, with the query they were found with. */
  clickedResults(from: string, to: string, limit: number): Promise<ClickedResult[]>;
  /** Every day and query of the range, oldest day first and most searched first (the CSV export). */
  rows(from: string, to: string): AsyncIterable<SearchDayCount>;
}

/**
 * The query and click log of one search service (docs/design/search-engine.md, Search activity): in
 * the index file on one machine, in the shared database in a cluster, where every search node adds
 * what it counted.
 */
export interface SearchActivityLog {
  /** Whether other processes add to this log too (then a node reads their counts now and then). */
  readonly shared: boolean;
  counts(limit: number): Promise<ActivityCounts>;
  /**
   * At least the entries added to since `sinceMicros` (by the adders' clocks), with their whole
   * counts: what a node reads of the others' activity without reading the whole log again.
   */
  changedSince(sinceMicros: number, limit: number): Promise<ActivityCounts>;
  /** Adds a batch at once: all of it or, when this throws, nothing. */
  add(batch: ActivityBatch, nowMicros: number): Promise<void>;
  /** Forgets queries asked (and queries clicked from) only once and not since `beforeMicros`. */
  pruneQueries(beforeMicros: number): Promise<void>;
  /** Forgets the analytics days before `day` (retention). */
  pruneDays(day: string): Promise<void>;
  readonly analytics: SearchAnalyticsReader;
}

/** The search activity of every search service, in a store several processes share. */
export interface SearchActivityStore {
  forService(serviceId: number): SearchActivityLog;
}

/** Whether a batch holds anything to add. */
export function isEmptyBatch(batch: ActivityBatch): boolean {
  return (
    batch.queries.length === 0 &&
    batch.clicks.size === 0 &&
    batch.queryClicks.size === 0 &&
    batch.searchDays.length === 0 &&
    batch.clickDays.length === 0
  );
}
