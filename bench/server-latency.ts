/**
 * The server's own view of request times, from its Prometheus histogram
 * `kumo_http_request_duration_seconds` (docs/operations.md, Monitoring): how many requests took it
 * longer than a bound. The load client shares the machine's cores with the server and the crawl,
 * so its latencies include time the client itself waited for the CPU; this count does not.
 */
const METRIC = 'kumo_http_request_duration_seconds_bucket';

/** Requests answered in total, and within `boundSeconds` (a bucket bound of the histogram). */
export interface ServerLatencyCounts {
  total: number;
  within: number;
}

/** Sums the histogram over every route; throws when the bound is not one of its buckets. */
export function serverLatencyCounts(metricsText: string, boundSeconds: number): ServerLatencyCounts {
  let total = 0;
  let within = 0;
  let boundSeen = false;
  for (const line of metricsText.split('\n')) {
    if (!line.startsWith(`${METRIC}{`)) continue;
    const le = /[{,]le="([^"]+)"/.exec(line)?.[1];
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (le === '+Inf') total += value;
    else if (Number(le) === boundSeconds) {
      within += value;
      boundSeen = true;
    }
  }
  if (total > 0 && !boundSeen) throw new Error(`${METRIC} has no bucket at ${boundSeconds} s`);
  return { total, within };
}

/** Requests between two readings of the histogram that took the server longer than the bound. */
export function slowerThanBound(
  before: ServerLatencyCounts,
  after: ServerLatencyCounts,
): { requests: number; slower: number } {
  const requests = after.total - before.total;
  return { requests, slower: requests - (after.within - before.within) };
}
