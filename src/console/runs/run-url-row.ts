/** A URL row of a finished run as GET …/runs/{id}/urls answers it (docs/api.md, Runs). */
export interface UrlRow {
  row_id: number;
  url: string;
  last_url: string | null;
  ok: boolean;
  crawl_datetime: string;
  http_status: number | null;
  content_type: string | null;
  content_length: number | null;
  depth: number | null;
  error_kind: string | null;
  fetch_error: string | null;
}
