/**
 * The per-day search analytics of a search service (docs/architecture.md, Search analytics):
 * what is counted, and what the console reads of it.
 */
export interface SearchDayCount {
  day: string;
  query: string;
  searches: number;
  noResults: number;
  clicks: number;
}

export interface ClickDayCount {
  day: string;
  query: string;
  url: string;
  clicks: number;
}

export interface DayTotals {
  day: string;
  searches: number;
  noResults: number;
  clicks: number;
}

export interface QueryTotals {
  query: string;
  searches: number;
  noResults: number;
  clicks: number;
}

export interface ClickedResult {
  query: string;
  url: string;
  clicks: number;
}

/** Reading and adding to a search service's per-day analytics. */
export interface SearchAnalyticsLog {
  add(searches: readonly SearchDayCount[], clicks: readonly ClickDayCount[]): void;
  pruneBefore(day: string): void;
  days(from: string, to: string): DayTotals[];
  queries(from: string, to: string, order: 'searches' | 'noResults', limit: number): QueryTotals[];
  clickedResults(from: string, to: string, limit: number): ClickedResult[];
  /** Every day and query of the range, oldest day first and most searched first (the CSV export). */
  rows(from: string, to: string): IterableIterator<SearchDayCount>;
}
