import type { KumoConfig } from '../config/index.js';
import { sleep } from '../util/index.js';
import { FetchDeadline } from './fetch-deadline.js';
import { FetchFailure, RETRYABLE_STATUSES } from './fetch-errors.js';
import type { HopResponse, HttpFetcher } from './http-fetcher.js';

/** Service-wide fetch limits (docs/reference/crawl-rules.md, Fetching; configurable in KumoConfig). */
export interface FetchLimits {
  timeoutMs: number;
  maxRedirects: number;
  maxBodyBytes: number;
  /**
   * Bytes of page bodies one run holds at once (body-budget.ts, docs/design/crawl.md, Bodies in
   * hand); 8 MiB when absent.
   */
  bodyBudgetBytes?: number;
  retryCount: number;
  retryBaseDelayMs: number;
  /**
   * The first pause of a host whose pages answered 5xx several times in a row
   * (docs/reference/crawl-rules.md, Slowing down and pausing); 30 s when absent.
   */
  hostPauseMs?: number;
}

/** The service-wide fetch limits of a configuration. */
export function fetchLimitsOf(config: KumoConfig): FetchLimits {
  return {
    timeoutMs: config.fetchTimeoutSeconds * 1000,
    maxRedirects: config.maxRedirects,
    maxBodyBytes: config.maxBodyBytes,
    bodyBudgetBytes: config.crawlBodyBudgetBytes,
    retryCount: config.retryCount,
    retryBaseDelayMs: config.retryBaseDelayMs,
    hostPauseMs: config.hostPauseMs,
  };
}

export interface PageFetchPolicy {
  /** Request headers for one hop: user agent, language and, only where in scope, credentials. */
  headersFor(url: URL): Record<string, string>;
  /** Why a redirect target may not be followed, or undefined when it may. */
  refuseRedirect(target: URL): Promise<string | undefined>;
  /** Whether a response of this Content-Type is kept (PDF / office flags judged after the fetch). */
  acceptsContentType(contentType: string | undefined): boolean;
}

export type PageFetchResult =
  | {
      kind: 'response';
      /** URL of the last hop (equal to the requested URL when no redirect happened). */
      finalUrl: string;
      status: number;
      headers: Record<string, string>;
      /** Absent when the body was not read (redirect not followed, failure status of no use). */
      body: Buffer | undefined;
      /** Set when a redirect was not followed; finalUrl is then the refused target. */
      refusedRedirect: string | undefined;
      /**
       * A 304 to a conditional request: headers and body are the stored copy of the previous run
       * (previous-answers.ts), which the page keeps.
       */
      kept?: true;
      /** With `kept`: when the copy was fetched whole (meta.json `stored_datetime`). */
      keptSince?: string | undefined;
      /**
       * With `kept`, a copy kept with no request at all, and why (meta.json `kept_without_request`,
       * lastmod-skip.ts); the status is then 304 as if the site had answered it.
       */
      keptWithoutRequest?: 'sitemap_lastmod';
      /** With `keptWithoutRequest`: when the site last answered for the copy (meta.json `confirmed_datetime`). */
      confirmedAt?: string | undefined;
    }
  | { kind: 'excluded'; contentType: string }
  | {
      kind: 'failed';
      failure: FetchFailure;
      finalUrl: string;
      status: number | undefined;
      headers: Record<string, string>;
    };

/**
 * Fetches one page (docs/reference/crawl-rules.md, Fetching and Credentials): redirects followed
 * hop by hop (each target checked against scope and robots, credentials re-decided per host), a
 * time limit for the whole page, a body cap, and retries of network errors and 408/429/5xx with
 * backoff and Retry-After. An address the fetcher's address policy refuses is a failure
 * (`address_refused`) never retried; as a redirect target it is a redirect not followed.
 */
export async function fetchPage(
  fetcher: HttpFetcher,
  url: string,
  policy: PageFetchPolicy,
  limits: FetchLimits,
  runSignal: AbortSignal,
): Promise<PageFetchResult> {
  let attempt = 0;
  for (;;) {
    const result = await fetchOnce(fetcher, url, policy, limits, runSignal);
    const retryDelayMs = retryDelayOf(result, attempt, limits);
    if (retryDelayMs === undefined || attempt >= limits.retryCount || runSignal.aborted) return result;
    attempt += 1;
    await sleep(retryDelayMs, runSignal);
  }
}

/** A Retry-After longer than this is cut to it: a run does not wait hours for one host. */
export const MAX_RETRY_AFTER_MS = 120_000;

function retryDelayOf(result: PageFetchResult, attempt: number, limits: FetchLimits): number | undefined {
  const backoffMs = limits.retryBaseDelayMs * 2 ** attempt;
  if (result.kind === 'failed') return result.failure.retryable ? backoffMs : undefined;
  if (result.kind !== 'response' || !RETRYABLE_STATUSES.has(result.status)) return undefined;
  const retryAfterMs = parseRetryAfterMs(result.headers['retry-after']);
  return retryAfterMs === undefined
    ? backoffMs
    : Math.min(Math.max(retryAfterMs, backoffMs), MAX_RETRY_AFTER_MS);
}

/** Retry-After as delay-seconds or an HTTP-date (RFC 9110 10.2.3). */
export function parseRetryAfterMs(value: string | undefined, nowMs = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

async function fetchOnce(
  fetcher: HttpFetcher,
  url: string,
  policy: PageFetchPolicy,
  limits: FetchLimits,
  runSignal: AbortSignal,
): Promise<PageFetchResult> {
  const deadline = new FetchDeadline(runSignal, limits.timeoutMs);
  try {
    return await fetchHops(fetcher, url, policy, limits, deadline.signal);
  } finally {
    deadline.release();
  }
}

async function fetchHops(
  fetcher: HttpFetcher,
  url: string,
  policy: PageFetchPolicy,
  limits: FetchLimits,
  signal: AbortSignal,
): Promise<PageFetchResult> {
  let current = new URL(url);
  let last: { status: number; headers: Record<string, string> } | undefined;
  for (let hop = 0; ; hop++) {
    let response: HopResponse;
    try {
      response = await fetcher.fetchHop({ url: current.href, headers: policy.headersFor(current), signal });
    } catch (error) {
      // A redirect target on a refused address is a redirect not followed, like one out of scope.
      if (last !== undefined && error instanceof FetchFailure && error.kind === 'address_refused') {
        return {
          kind: 'response',
          finalUrl: current.href,
          ...last,
          body: undefined,
          refusedRedirect: `redirect target refused: ${error.message}`,
        };
      }
      return failed(error, current.href, last);
    }
    last = { status: response.status, headers: response.headers };
    const location = response.headers.location;
    if (isRedirect(response.status) && location !== undefined) {
      await response.discard();
      const target = resolveLocation(location, current);
      if (target === undefined) {
        return failed(
          new FetchFailure('bad_response', `unusable Location "${location}"`),
          current.href,
          last,
        );
      }
      if (hop >= limits.maxRedirects) {
        const failure = new FetchFailure('too_many_redirects', `more than ${limits.maxRedirects} redirects`);
        return failed(failure, target.href, last);
      }
      const refusal = await policy.refuseRedirect(target);
      if (refusal !== undefined) {
        return {
          kind: 'response',
          finalUrl: target.href,
          ...last,
          body: undefined,
          refusedRedirect: refusal,
        };
      }
      current = target;
      continue;
    }
    const contentType = response.headers['content-type'];
    if (response.status >= 200 && response.status < 300 && !policy.acceptsContentType(contentType)) {
      await response.discard();
      return { kind: 'excluded', contentType: contentType ?? '' };
    }
    try {
      const body = await response.readBody(limits.maxBodyBytes);
      return { kind: 'response', finalUrl: current.href, ...last, body, refusedRedirect: undefined };
    } catch (error) {
      return failed(error, current.href, last);
    }
  }
}

function resolveLocation(location: string, base: URL): URL | undefined {
  try {
    const target = new URL(location, base);
    return target.protocol === 'http:' || target.protocol === 'https:' ? target : undefined;
  } catch {
    return undefined;
  }
}

function failed(
  error: unknown,
  finalUrl: string,
  last: { status: number; headers: Record<string, string> } | undefined,
): PageFetchResult {
  const failure =
    error instanceof FetchFailure
      ? error
      : new FetchFailure('network', (error as Error).message, { cause: error });
  return { kind: 'failed', failure, finalUrl, status: last?.status, headers: last?.headers ?? {} };
}
