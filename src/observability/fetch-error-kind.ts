import { errorCodesOf, networkKindOf, type PageFetchResult } from '../crawler/index.js';
import type { RenderOutcome } from '../crawler/engine.js';

/**
 * Why a crawled page failed, as the `kind` label of `kumo_fetch_errors_total`: a short fixed
 * word, never a message or a URL, so the number of series stays bounded.
 *
 * - `dns`, `connect`, `tls`, `network`: the request did not get an answer (name not resolved;
 *   connection refused, reset or unreachable; TLS handshake or certificate; anything else).
 * - `timeout`, `body_too_large`, `too_many_redirects`, `bad_response`, `cancelled`: the crawler's
 *   own fetch failure kinds (src/crawler/fetch-errors.ts); a kind added there later is counted
 *   under its own name.
 * - `http_3xx`, `http_4xx`, `http_5xx`: an answer that is not a page (a redirect without a
 *   usable target counts as 3xx).
 * - `redirect_refused`: a redirect to a target out of scope or disallowed by robots.txt.
 * - `render`: fetched, but the browser could not render it (screenshots, wait_type 2).
 */
export type FetchErrorKind = string;

type FetchedResult = Exclude<PageFetchResult, { kind: 'excluded' }>;

/** The failure kind of a crawled page, or undefined when the page was fetched fine. */
export function fetchErrorKindOf(
  result: FetchedResult,
  rendering: RenderOutcome | undefined,
): FetchErrorKind | undefined {
  if (result.kind === 'failed') return failureKindOf(result.failure.kind, result.failure.cause);
  if (result.refusedRedirect !== undefined) return 'redirect_refused';
  // A 304 that kept the previous run's copy is a page fetched fine.
  if (result.kept === true) return rendering?.kind === 'failed' ? 'render' : undefined;
  if (result.status >= 500) return 'http_5xx';
  if (result.status >= 400) return 'http_4xx';
  if (result.status >= 300) return 'http_3xx';
  if (rendering?.kind === 'failed') return 'render';
  return undefined;
}

const CRAWLER_KINDS: Readonly<Record<string, FetchErrorKind>> = {
  too_large: 'body_too_large',
};

function failureKindOf(kind: string, cause: unknown): FetchErrorKind {
  if (kind === 'network') return networkKindOf(errorCodesOf(cause));
  return CRAWLER_KINDS[kind] ?? labelSafe(kind);
}

/** A kind as a label value: lower-case word characters, bounded. */
function labelSafe(kind: string): string {
  const safe = kind
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .slice(0, 32);
  return safe === '' ? 'other' : safe;
}
