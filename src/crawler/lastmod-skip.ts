/**
 * Pages a scheduled re-crawl keeps without a request (docs/reference/crawl-rules.md, Conditional
 * re-crawls): with `sitemap_lastmod_skip_days` above 0, a URL whose sitemap `lastmod` is earlier
 * than the last time the site answered for the stored copy (a 200, or a 304 confirming it), that
 * answer being at most that many days old, is kept from the previous run exactly as a 304 would
 * keep it, without asking the site.
 */
import type { FrontierEntry, RunDataStore } from '../run-data/index.js';
import { parseQueryDatetime } from '../util/index.js';
import type { FetchedResult } from './page-record.js';
import type { PreviousPage } from './previous-answers.js';

/** meta.json `kept_without_request` of a page kept on its sitemap's word. */
export const KEPT_BY_SITEMAP_LASTMOD = 'sitemap_lastmod';

const MICROS_PER_DAY = 86_400 * 1_000_000;

/**
 * A `lastmod` that names an instant: a date, a time and a time zone (`2026-11-20T10:00+09:00`,
 * `2026-11-20T01:00:00.5Z`).
 */
const ZONED_LASTMOD = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
/** A `lastmod` that is a day (`2026-11-20`), the form most sitemaps write. */
const DAY_LASTMOD = /^\d{4}-\d{2}-\d{2}$/;
/**
 * A day ends last at UTC-12: its 24 hours after midnight UTC, and 12 more. A page changed on
 * that day, in any zone, changed before then.
 */
const DAY_END_MICROS = 36 * 3_600 * 1_000_000;

/**
 * The latest instant a sitemap's `lastmod` may mean, in epoch microseconds: the instant it names,
 * or the end of its day wherever on earth; undefined when it is neither. A time without a zone, a
 * month or a year alone could be too many instants: they are not trusted.
 */
export function lastmodMicrosOf(lastmod: string): number | undefined {
  const text = lastmod.trim();
  if (DAY_LASTMOD.test(text)) {
    const midnight = parseQueryDatetime(`${text}T00:00:00Z`);
    return midnight === undefined ? undefined : midnight + DAY_END_MICROS;
  }
  const match = ZONED_LASTMOD.exec(text);
  if (!match) return undefined;
  return parseQueryDatetime(`${match[1]}${match[2] ?? ':00'}${match[3]}`);
}

/**
 * Whether the page may be kept without a request: its sitemap says it last changed before the
 * site last answered for the stored copy (`confirmedAt`, a meta.json timestamp), and that answer
 * is no older than `skipDays`. A lastmod in the future, without a zone or unreadable never skips.
 */
export function skipsRequest(
  lastmod: string | null,
  confirmedAt: string | undefined,
  skipDays: number,
  nowMicros: number,
): boolean {
  if (skipDays <= 0 || lastmod === null || confirmedAt === undefined) return false;
  const changed = lastmodMicrosOf(lastmod);
  const confirmed = parseQueryDatetime(confirmedAt);
  if (changed === undefined || confirmed === undefined) return false;
  if (changed > nowMicros || confirmed > nowMicros) return false;
  return changed < confirmed && nowMicros - confirmed <= skipDays * MICROS_PER_DAY;
}

/**
 * The answer a page kept without a request stands on: the stored copy, as a 304 would give it,
 * marked as not asked for, with the entry as it is recorded (its lastmod as the sitemaps read so
 * far give it); undefined when the page is to be fetched. `now` is the time and the run's store.
 * A copy that came through a redirect is never kept so: a lastmod says nothing of where the URL
 * leads now, and the redirect's target must pass the crawl's rules again.
 */
export function keptWithoutRequest(
  entry: FrontierEntry,
  fetchUrl: string,
  stored: PreviousPage | undefined,
  skipDays: number,
  now: { micros: number; store: Pick<RunDataStore, 'lastmodOf'> },
): { entry: FrontierEntry; result: FetchedResult } | undefined {
  if (stored === undefined || skipDays <= 0 || stored.lastUrl !== null) return undefined;
  // A URL a link queued may have got its lastmod from a sitemap read since it left the queue.
  const lastmod = entry.lastmod ?? now.store.lastmodOf(entry.seq);
  if (!skipsRequest(lastmod, stored.confirmedAt, skipDays, now.micros)) return undefined;
  return { entry: { ...entry, lastmod }, result: keptCopyOf(stored, fetchUrl) };
}

function keptCopyOf(stored: PreviousPage, fetchUrl: string): FetchedResult {
  return {
    kind: 'response',
    finalUrl: fetchUrl,
    status: 304,
    headers: stored.headers,
    body: stored.body,
    refusedRedirect: undefined,
    kept: true,
    keptSince: stored.storedAt,
    keptWithoutRequest: KEPT_BY_SITEMAP_LASTMOD,
    confirmedAt: stored.confirmedAt,
  };
}
