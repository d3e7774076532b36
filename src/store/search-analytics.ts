/**
 * The per-day search analytics of a search service (docs/design/search-engine.md, Search activity):
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
