/**
 * The kind of a failed URL, for grouping a run's failures (docs/console.md, Runs): the HTTP
 * status of an error answer (`HTTP 404`), `not rendered` for a 2xx page the browser could not
 * render, or the cause of a fetch that got no answer, without the part that names the host or
 * address (`connection refused`, `DNS lookup failed`, `timed out …`).
 */
export function urlErrorKind(
  ok: boolean,
  httpStatus: number | null,
  fetchError: string | null,
): string | null {
  if (ok) return null;
  if (httpStatus !== null)
    return httpStatus >= 200 && httpStatus < 300 ? 'not rendered' : `HTTP ${httpStatus}`;
  if (fetchError === null || fetchError === '') return 'no answer';
  // "connection refused (127.0.0.1:9)", "DNS lookup failed for x.example": the cause, not where.
  return fetchError.replace(/ \(.*\)$/, '').replace(/ for \S+$/, '');
}
