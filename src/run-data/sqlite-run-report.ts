import Database from 'better-sqlite3';
import type {
  ErrorGroup,
  ReportChoices,
  ReportFilter,
  ReportPage,
  ReportRow,
  RunReport,
  UrlDetail,
} from './run-report.js';

interface Row {
  id: number;
  url: string;
  last_url: string | null;
  ok: number;
  crawl_us: number;
  http_status: number | null;
  content_type: string | null;
  content_length: number | null;
  depth: number | null;
  error_kind: string | null;
  fetch_error: string | null;
  member_offset: number | null;
  member_bytes: number | null;
}

const rowOf = (row: Row): ReportRow => ({
  id: row.id,
  url: row.url,
  lastUrl: row.last_url,
  ok: row.ok === 1,
  crawlMicros: row.crawl_us,
  httpStatus: row.http_status,
  contentType: row.content_type,
  contentLength: row.content_length,
  depth: row.depth,
  errorKind: row.error_kind,
  fetchError: row.fetch_error,
  bundled: row.member_offset !== null,
});

/** `text/html; charset=utf-8` → `text/html`, in SQL. */
const MEDIA_TYPE = `lower(trim(CASE WHEN instr(content_type, ';') > 0
  THEN substr(content_type, 1, instr(content_type, ';') - 1) ELSE content_type END))`;

/** A run's report file, opened read only (docs/design/crawl.md, Run reports and live progress). */
export class SqliteRunReport implements RunReport {
  private readonly db: Database.Database;

  constructor(filePath: string) {
    this.db = new Database(filePath, { readonly: true, fileMustExist: true });
  }

  rows(filter: ReportFilter, offset: number, limit: number): ReportPage {
    const clauses: string[] = [];
    const parameters: (string | number)[] = [];
    if (filter.text !== undefined && filter.text !== '') {
      // instr on lower(): a plain substring, no LIKE wildcards to escape.
      clauses.push("(instr(lower(url), ?) > 0 OR instr(lower(coalesce(last_url, '')), ?) > 0)");
      const text = filter.text.toLowerCase();
      parameters.push(text, text);
    }
    if (filter.ok !== undefined) {
      clauses.push('ok = ?');
      parameters.push(filter.ok ? 1 : 0);
    }
    if (filter.statusClass === 'none') clauses.push('http_status IS NULL');
    else if (filter.statusClass !== undefined) {
      clauses.push('http_status / 100 = ?');
      parameters.push(Number(filter.statusClass[0]));
    }
    if (filter.contentType !== undefined) {
      clauses.push(`${MEDIA_TYPE} = ?`);
      parameters.push(filter.contentType.toLowerCase());
    }
    if (filter.depth !== undefined) {
      clauses.push('depth = ?');
      parameters.push(filter.depth);
    }
    if (filter.errorKind !== undefined) {
      clauses.push('error_kind = ?');
      parameters.push(filter.errorKind);
    }
    return this.page(clauses.length === 0 ? '' : `WHERE ${clauses.join(' AND ')}`, parameters, offset, limit);
  }

  detail(rowId: number): UrlDetail | undefined {
    const row = this.db.prepare<[number], Row>('SELECT * FROM urls WHERE id = ?').get(rowId);
    if (row === undefined) return undefined;
    // A report written before referrers and links were kept has neither column nor table.
    const extra = row as Row & { referrer?: string | null; links_found?: number | null };
    const hasLinks =
      this.db
        .prepare<[], { n: number }>(
          "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'links'",
        )
        .get()!.n > 0;
    const links = hasLinks
      ? this.db
          .prepare<[number], { url: string; anchorText: string }>(
            'SELECT url, anchor_text AS anchorText FROM links WHERE row_id = ? ORDER BY rowid',
          )
          .all(rowId)
      : [];
    return {
      row: rowOf(row),
      referrer: extra.referrer ?? null,
      linksFound: extra.links_found ?? null,
      links,
    };
  }

  errorGroups(examples: number): ErrorGroup[] {
    const kinds = this.db
      .prepare<[], { kind: string; count: number }>(
        `SELECT error_kind AS kind, count(*) AS count FROM urls WHERE error_kind IS NOT NULL
         GROUP BY error_kind ORDER BY count DESC, kind`,
      )
      .all();
    const sample = this.db.prepare<[string, number], Row>(
      'SELECT * FROM urls WHERE error_kind = ? ORDER BY id LIMIT ?',
    );
    return kinds.map(({ kind, count }) => ({ kind, count, examples: sample.all(kind, examples).map(rowOf) }));
  }

  choices(): ReportChoices {
    const rows = this.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM urls').get()!.n;
    const contentTypes = this.db
      .prepare<[], { value: string; count: number }>(
        `SELECT ${MEDIA_TYPE} AS value, count(*) AS count FROM urls WHERE content_type IS NOT NULL
         AND content_type != '' GROUP BY value ORDER BY count DESC, value LIMIT 50`,
      )
      .all();
    const depths = this.db
      .prepare<[], { value: number; count: number }>(
        'SELECT depth AS value, count(*) AS count FROM urls WHERE depth IS NOT NULL GROUP BY depth ORDER BY depth',
      )
      .all();
    return { rows, contentTypes, depths };
  }

  screenshotRows(offset: number, limit: number): ReportPage {
    return this.page(
      `WHERE ok = 1 AND member_offset IS NOT NULL AND http_status / 100 = 2 AND ${MEDIA_TYPE} IN ('text/html', 'application/xhtml+xml')`,
      [],
      offset,
      limit,
    );
  }

  member(rowId: number): { offset: number; bytes: number } | undefined {
    const row = this.db
      .prepare<[number], { offset: number; bytes: number }>(
        'SELECT member_offset AS offset, member_bytes AS bytes FROM urls WHERE id = ? AND member_offset IS NOT NULL',
      )
      .get(rowId);
    return row;
  }

  close(): void {
    this.db.close();
  }

  private page(where: string, parameters: (string | number)[], offset: number, limit: number): ReportPage {
    const matched = this.db
      .prepare<(string | number)[], { n: number }>(`SELECT count(*) AS n FROM urls ${where}`)
      .get(...parameters)!.n;
    const rows = this.db
      .prepare<(string | number)[], Row>(`SELECT * FROM urls ${where} ORDER BY id LIMIT ? OFFSET ?`)
      .all(...parameters, limit, offset)
      .map(rowOf);
    return { matched, rows };
  }
}
