/**
 * A finished run's report as the console reads it (docs/design/crawl.md, Run reports and live
 * progress): its URL rows with filters and paging, its failures grouped by kind, and where each
 * page sits in the page bundle (for screenshots).
 */

export interface ReportRow {
  /** Position in fetch order, from 1. */
  id: number;
  url: string;
  lastUrl: string | null;
  ok: boolean;
  crawlMicros: number;
  httpStatus: number | null;
  contentType: string | null;
  contentLength: number | null;
  depth: number | null;
  errorKind: string | null;
  fetchError: string | null;
  /** The page has files in crawl_objects.tar.gz. */
  bundled: boolean;
}

export type StatusClass = '2xx' | '3xx' | '4xx' | '5xx' | 'none';

export interface ReportFilter {
  /** Part of the URL (or the final URL), case-insensitive. */
  text?: string | undefined;
  ok?: boolean | undefined;
  statusClass?: StatusClass | undefined;
  /** The media type, without parameters (`text/html`). */
  contentType?: string | undefined;
  depth?: number | undefined;
  errorKind?: string | undefined;
}

export interface ReportPage {
  /** Rows that match the filter, all pages together. */
  matched: number;
  rows: ReportRow[];
}

export interface ErrorGroup {
  kind: string;
  count: number;
  /** The first few URLs of the kind, in fetch order. */
  examples: ReportRow[];
}

/** What the filters can choose from: every value present in the run, with its count. */
export interface ReportChoices {
  rows: number;
  contentTypes: { value: string; count: number }[];
  depths: { value: number; count: number }[];
}

/** One URL of the run with what the report knows beyond its row (the console's URL detail). */
export interface UrlDetail {
  row: ReportRow;
  /** The page whose link queued the URL; null for a seed or a sitemap's URL. */
  referrer: string | null;
  /** Links found on the page; null when the run did not collect its link list. */
  linksFound: number | null;
  /** The page's first links, in page order (at most 100). */
  links: { url: string; anchorText: string }[];
}

export interface RunReport {
  rows(filter: ReportFilter, offset: number, limit: number): ReportPage;
  /** A row with its referrer and links; undefined when the run has no such row. */
  detail(rowId: number): UrlDetail | undefined;
  errorGroups(examples: number): ErrorGroup[];
  choices(): ReportChoices;
  /** Rows that may have a screenshot: HTML pages answered 2xx whose files are in the bundle. */
  screenshotRows(offset: number, limit: number): ReportPage;
  /** Where a row's gzip member sits in crawl_objects.tar.gz; undefined when it has none. */
  member(rowId: number): { offset: number; bytes: number } | undefined;
  close(): void;
}
