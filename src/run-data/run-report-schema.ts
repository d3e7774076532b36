/**
 * The schema of a run's report (docs/design/crawl.md, Run reports and live progress): a small
 * SQLite file beside the run's artifacts that the console's URL table, error groups and screenshot
 * gallery read.
 */
export const RUN_REPORT_FILE = 'run-report.db';

/** The links of one page the report keeps: the detail lists them, the count says how many there were. */
export const REPORT_LINKS_PER_PAGE = 100;

export const REPORT_SCHEMA = `
CREATE TABLE urls (
  id INTEGER PRIMARY KEY,
  url TEXT NOT NULL,
  last_url TEXT,
  ok INTEGER NOT NULL,
  crawl_us INTEGER NOT NULL,
  http_status INTEGER,
  content_type TEXT,
  content_length INTEGER,
  depth INTEGER,
  error_kind TEXT,
  fetch_error TEXT,
  member_offset INTEGER,
  member_bytes INTEGER,
  -- The page whose link queued the URL; NULL for a seed or a sitemap's URL.
  referrer TEXT,
  -- Links found on the page; NULL when the run's setting did not collect the link list.
  links_found INTEGER
);
CREATE INDEX urls_error_kind ON urls(error_kind) WHERE error_kind IS NOT NULL;
-- The first links of each page (at most REPORT_LINKS_PER_PAGE), for the URL detail.
CREATE TABLE links (
  row_id INTEGER NOT NULL,
  url TEXT NOT NULL,
  anchor_text TEXT NOT NULL
);
CREATE INDEX links_row ON links(row_id);
`;
