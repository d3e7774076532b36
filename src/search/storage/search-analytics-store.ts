import type Database from 'better-sqlite3';
import type {
  ClickDayCount,
  ClickedResult,
  DayTotals,
  QueryTotals,
  SearchDayCount,
} from '../../store/index.js';

/**
 * Per-day search analytics of one search service, kept in its index file
 * (docs/design/search-engine.md, Search activity): searches, searches without results and clicks
 * per normalized query and day, and clicks per query, result and day. Days are dates in the service
 * time zone (`2026-11-26`). Created in place in files of any format: the tables are independent of
 * the index format.
 */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS search_days (
    day TEXT NOT NULL,
    query TEXT NOT NULL,
    searches INTEGER NOT NULL,
    no_results INTEGER NOT NULL,
    clicks INTEGER NOT NULL,
    PRIMARY KEY (day, query)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS click_days (
    day TEXT NOT NULL,
    query TEXT NOT NULL,
    url TEXT NOT NULL,
    clicks INTEGER NOT NULL,
    PRIMARY KEY (day, query, url)
  ) WITHOUT ROWID;
`;

export class SearchAnalyticsStore {
  private readonly addSearch: Database.Statement;
  private readonly addClick: Database.Statement;

  constructor(private readonly db: Database.Database) {
    db.exec(SCHEMA);
    this.addSearch = db.prepare(
      `INSERT INTO search_days (day, query, searches, no_results, clicks) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (day, query) DO UPDATE SET searches = searches + excluded.searches,
         no_results = no_results + excluded.no_results, clicks = clicks + excluded.clicks`,
    );
    this.addClick = db.prepare(
      `INSERT INTO click_days (day, query, url, clicks) VALUES (?, ?, ?, ?)
       ON CONFLICT (day, query, url) DO UPDATE SET clicks = clicks + excluded.clicks`,
    );
  }

  /** Adds counts, in one transaction. */
  add(searches: readonly SearchDayCount[], clicks: readonly ClickDayCount[]): void {
    this.db.transaction(() => {
      for (const entry of searches)
        this.addSearch.run(entry.day, entry.query, entry.searches, entry.noResults, entry.clicks);
      for (const entry of clicks) this.addClick.run(entry.day, entry.query, entry.url, entry.clicks);
    })();
  }

  /** Forgets the days before `day` (retention). */
  pruneBefore(day: string): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM search_days WHERE day < ?').run(day);
      this.db.prepare('DELETE FROM click_days WHERE day < ?').run(day);
    })();
  }

  /** Totals per day with any search or click, from `from` to `to` inclusive, oldest first. */
  days(from: string, to: string): DayTotals[] {
    return this.db
      .prepare<[string, string], DayTotals>(
        `SELECT day, sum(searches) AS searches, sum(no_results) AS noResults, sum(clicks) AS clicks
         FROM search_days WHERE day BETWEEN ? AND ? GROUP BY day ORDER BY day`,
      )
      .all(from, to);
  }

  /** Queries by searches (or by searches without results), most first. */
  queries(from: string, to: string, order: 'searches' | 'noResults', limit: number): QueryTotals[] {
    const having = order === 'noResults' ? 'HAVING sum(no_results) > 0' : '';
    return this.db
      .prepare<[string, string, number], QueryTotals>(
        `SELECT query, sum(searches) AS searches, sum(no_results) AS noResults, sum(clicks) AS clicks
         FROM search_days WHERE day BETWEEN ? AND ? GROUP BY query ${having}
         ORDER BY ${order === 'noResults' ? 'noResults' : 'searches'} DESC, query LIMIT ?`,
      )
      .all(from, to, limit);
  }

  /** Results by clicks, most first, with the query they were found with. */
  clickedResults(from: string, to: string, limit: number): ClickedResult[] {
    return this.db
      .prepare<[string, string, number], ClickedResult>(
        `SELECT query, url, sum(clicks) AS clicks FROM click_days WHERE day BETWEEN ? AND ?
         GROUP BY query, url ORDER BY clicks DESC, query, url LIMIT ?`,
      )
      .all(from, to, limit);
  }

  *rows(from: string, to: string): IterableIterator<SearchDayCount> {
    yield* this.db
      .prepare<[string, string], SearchDayCount>(
        `SELECT day, query, searches, no_results AS noResults, clicks FROM search_days
         WHERE day BETWEEN ? AND ? ORDER BY day, searches DESC, query`,
      )
      .iterate(from, to);
  }
}
