/**
 * The schema of a run's report (docs/architecture.md, Run reports): a small SQLite file beside
 * the run's artifacts that the console's URL table, error groups and screenshot gallery read.
 */
export const RUN_REPORT_FILE = 'run-report.db';

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
  member_bytes INTEGER
);
CREATE INDEX urls_error_kind ON urls(error_kind) WHERE error_kind IS NOT NULL;
`;
