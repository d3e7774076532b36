import type {
  ActivityBatch,
  ActivityCounts,
  QueryLogEntry,
  SearchActivityLog,
  SearchActivityStore,
  SearchAnalyticsReader,
} from '../search-activity-log.js';
import type { ClickedResult, DayTotals, QueryTotals, SearchDayCount } from '../search-analytics.js';
import type { PgSql } from './pg-connection.js';

/** Rows of the CSV export read at a time. */
const ROWS_PER_READ = 2000;

/**
 * The query and click logs of every search service in PostgreSQL (docs/design/search-engine.md,
 * Search activity): each search node adds what it counted every second, in one transaction per
 * service whatever the number of queries, and reads what the other nodes counted now and then.
 */
export class PgSearchActivityStore implements SearchActivityStore {
  constructor(private readonly sql: PgSql) {}

  forService(serviceId: number): SearchActivityLog {
    return new PgSearchActivityLog(this.sql, serviceId);
  }
}

class PgSearchActivityLog implements SearchActivityLog {
  readonly shared = true;
  readonly analytics: SearchAnalyticsReader;

  constructor(
    private readonly sql: PgSql,
    private readonly serviceId: number,
  ) {
    this.analytics = new PgSearchAnalytics(sql, serviceId);
  }

  counts(limit: number): Promise<ActivityCounts> {
    return this.countsSince(0, limit);
  }

  /** Only the rows added to since `sinceMicros` (an index on the time serves it). */
  changedSince(sinceMicros: number, limit: number): Promise<ActivityCounts> {
    return this.countsSince(sinceMicros, limit);
  }

  private async countsSince(sinceMicros: number, limit: number): Promise<ActivityCounts> {
    const service = this.serviceId;
    const [queries, clicks, queryClicks] = await Promise.all([
      this.sql<QueryLogEntry[]>`
        SELECT query, count, hits FROM search_query_log
        WHERE service_id = ${service} AND last_us >= ${sinceMicros} AND hits > 0
        ORDER BY count DESC, query LIMIT ${limit}`,
      this.sql<{ url: string; count: number }[]>`
        SELECT url, count FROM search_clicks WHERE service_id = ${service} AND last_us >= ${sinceMicros}`,
      this.sql<{ query: string; count: number }[]>`
        SELECT query, count FROM search_query_clicks WHERE service_id = ${service} AND last_us >= ${sinceMicros}
        ORDER BY count DESC, query LIMIT ${limit}`,
    ]);
    return {
      queries: queries.map((row) => ({ query: row.query, count: row.count, hits: row.hits })),
      clicks: new Map(clicks.map((row) => [row.url, row.count])),
      queryClicks: new Map(queryClicks.map((row) => [row.query, row.count])),
    };
  }

  /**
   * One transaction, one statement per table. Keys go in sorted, so two nodes adding the same
   * queries at once lock their rows in the same order and never deadlock.
   */
  async add(batch: ActivityBatch, nowMicros: number): Promise<void> {
    const service = this.serviceId;
    const queries = [...batch.queries].sort((a, b) => compare(a.query, b.query));
    const clicks = [...batch.clicks].sort(([a], [b]) => compare(a, b));
    const queryClicks = [...batch.queryClicks].sort(([a], [b]) => compare(a, b));
    const searchDays = [...batch.searchDays].sort(
      (a, b) => compare(a.day, b.day) || compare(a.query, b.query),
    );
    const clickDays = [...batch.clickDays].sort(
      (a, b) => compare(a.day, b.day) || compare(a.query, b.query) || compare(a.url, b.url),
    );
    await this.sql.begin(async (tx) => {
      if (queries.length > 0)
        await tx`
          INSERT INTO search_query_log (service_id, query, count, hits, last_us)
          SELECT ${service}, query, count, hits, ${nowMicros} FROM unnest(
            ${tx.array(queries.map((entry) => entry.query))}::text[],
            ${tx.array(queries.map((entry) => entry.count))}::bigint[],
            ${tx.array(queries.map((entry) => entry.hits))}::bigint[]
          ) AS q(query, count, hits)
          ON CONFLICT (service_id, query) DO UPDATE SET count = search_query_log.count + excluded.count,
            hits = excluded.hits, last_us = excluded.last_us`;
      if (clicks.length > 0)
        await tx`
          INSERT INTO search_clicks (service_id, url, count, last_us)
          SELECT ${service}, url, count, ${nowMicros} FROM unnest(
            ${tx.array(clicks.map(([url]) => url))}::text[],
            ${tx.array(clicks.map(([, count]) => count))}::bigint[]
          ) AS c(url, count)
          ON CONFLICT (service_id, url) DO UPDATE SET count = search_clicks.count + excluded.count,
            last_us = excluded.last_us`;
      if (queryClicks.length > 0)
        await tx`
          INSERT INTO search_query_clicks (service_id, query, count, last_us)
          SELECT ${service}, query, count, ${nowMicros} FROM unnest(
            ${tx.array(queryClicks.map(([query]) => query))}::text[],
            ${tx.array(queryClicks.map(([, count]) => count))}::bigint[]
          ) AS c(query, count)
          ON CONFLICT (service_id, query) DO UPDATE
            SET count = search_query_clicks.count + excluded.count, last_us = excluded.last_us`;
      if (searchDays.length > 0)
        await tx`
          INSERT INTO search_days (service_id, day, query, searches, no_results, clicks)
          SELECT ${service}, * FROM unnest(
            ${tx.array(searchDays.map((entry) => entry.day))}::text[],
            ${tx.array(searchDays.map((entry) => entry.query))}::text[],
            ${tx.array(searchDays.map((entry) => entry.searches))}::bigint[],
            ${tx.array(searchDays.map((entry) => entry.noResults))}::bigint[],
            ${tx.array(searchDays.map((entry) => entry.clicks))}::bigint[]
          )
          ON CONFLICT (service_id, day, query) DO UPDATE SET searches = search_days.searches + excluded.searches,
            no_results = search_days.no_results + excluded.no_results,
            clicks = search_days.clicks + excluded.clicks`;
      if (clickDays.length > 0)
        await tx`
          INSERT INTO search_click_days (service_id, day, query, url, clicks)
          SELECT ${service}, * FROM unnest(
            ${tx.array(clickDays.map((entry) => entry.day))}::text[],
            ${tx.array(clickDays.map((entry) => entry.query))}::text[],
            ${tx.array(clickDays.map((entry) => entry.url))}::text[],
            ${tx.array(clickDays.map((entry) => entry.clicks))}::bigint[]
          )
          ON CONFLICT (service_id, day, query, url) DO UPDATE
            SET clicks = search_click_days.clicks + excluded.clicks`;
    });
  }

  async pruneQueries(beforeMicros: number): Promise<void> {
    const service = this.serviceId;
    await this.sql.begin(async (tx) => {
      await tx`DELETE FROM search_query_log WHERE service_id = ${service} AND count <= 1 AND last_us < ${beforeMicros}`;
      await tx`DELETE FROM search_query_clicks WHERE service_id = ${service} AND count <= 1 AND last_us < ${beforeMicros}`;
    });
  }

  async pruneDays(day: string): Promise<void> {
    const service = this.serviceId;
    await this.sql.begin(async (tx) => {
      await tx`DELETE FROM search_days WHERE service_id = ${service} AND day < ${day}`;
      await tx`DELETE FROM search_click_days WHERE service_id = ${service} AND day < ${day}`;
    });
  }
}

/** The per-day analytics of one service, as the console reads them (same answers as SQLite's). */
class PgSearchAnalytics implements SearchAnalyticsReader {
  constructor(
    private readonly sql: PgSql,
    private readonly serviceId: number,
  ) {}

  async days(from: string, to: string): Promise<DayTotals[]> {
    const rows = await this.sql<DayTotals[]>`
      SELECT day, sum(searches)::bigint AS searches, sum(no_results)::bigint AS "noResults",
        sum(clicks)::bigint AS clicks
      FROM search_days WHERE service_id = ${this.serviceId} AND day BETWEEN ${from} AND ${to}
      GROUP BY day ORDER BY day`;
    return rows.map((row) => ({
      day: row.day,
      searches: row.searches,
      noResults: row.noResults,
      clicks: row.clicks,
    }));
  }

  async queries(
    from: string,
    to: string,
    order: 'searches' | 'noResults',
    limit: number,
  ): Promise<QueryTotals[]> {
    const noResults = order === 'noResults';
    const rows = await this.sql<QueryTotals[]>`
      SELECT query, sum(searches)::bigint AS searches, sum(no_results)::bigint AS "noResults",
        sum(clicks)::bigint AS clicks
      FROM search_days WHERE service_id = ${this.serviceId} AND day BETWEEN ${from} AND ${to}
      GROUP BY query HAVING ${noResults} = false OR sum(no_results) > 0
      ORDER BY CASE WHEN ${noResults} THEN sum(no_results) ELSE sum(searches) END DESC, query COLLATE "C"
      LIMIT ${limit}`;
    return rows.map((row) => ({
      query: row.query,
      searches: row.searches,
      noResults: row.noResults,
      clicks: row.clicks,
    }));
  }

  async clickedResults(from: string, to: string, limit: number): Promise<ClickedResult[]> {
    const rows = await this.sql<ClickedResult[]>`
      SELECT query, url, sum(clicks)::bigint AS clicks FROM search_click_days
      WHERE service_id = ${this.serviceId} AND day BETWEEN ${from} AND ${to}
      GROUP BY query, url ORDER BY clicks DESC, query COLLATE "C", url COLLATE "C" LIMIT ${limit}`;
    return rows.map((row) => ({ query: row.query, url: row.url, clicks: row.clicks }));
  }

  /** Read with a cursor, a few thousand rows at a time, so a year of queries is never held at once. */
  async *rows(from: string, to: string): AsyncIterable<SearchDayCount> {
    const cursor = this.sql<SearchDayCount[]>`
      SELECT day, query, searches, no_results AS "noResults", clicks FROM search_days
      WHERE service_id = ${this.serviceId} AND day BETWEEN ${from} AND ${to}
      ORDER BY day, searches DESC, query COLLATE "C"`.cursor(ROWS_PER_READ);
    for await (const rows of cursor)
      for (const row of rows)
        yield {
          day: row.day,
          query: row.query,
          searches: row.searches,
          noResults: row.noResults,
          clicks: row.clicks,
        };
  }
}

/** A fixed order of keys, so concurrent batches lock rows in the same order. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
