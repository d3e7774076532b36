import robotsParserModule from 'robots-parser';
import { decodeText } from './charset.js';
import { failureReasonOf } from './failure-reason.js';
import { type HostPermit, pacedFetcher } from './host-pacer.js';
import type { HttpFetcher } from './http-fetcher.js';
import { parseCrawlUrl } from './url-identity.js';
import { type FetchLimits, fetchPage, type PageFetchPolicy } from './page-fetch.js';

export interface RobotsPolicy {
  isAllowed(url: string): boolean;
  /** Crawl-delay for our user agent, in seconds. */
  crawlDelaySeconds: number | undefined;
  /** Why the policy is what it is, for logs: `parsed`, `unavailable (404)`, `unreachable (503)`. */
  source: string;
  /**
   * Why robots.txt gave no answer (`HTTP 503`, `connection refused (127.0.0.1:9)`) when that is
   * what disallows everything; a seed refused for it is a URL that could not be fetched.
   */
  unreachable?: string;
  /** The absolute http(s) URLs of its `Sitemap:` lines (docs/reference/crawl-rules.md, Sitemaps). */
  sitemaps: string[];
}

/** RFC 9309 2.3.1.2: a robots.txt this large is parsed up to the limit, not rejected. */
const MAX_ROBOTS_BYTES = 512 * 1024;
/** RFC 9309 2.3.1.2: follow at least five redirects. */
const MAX_ROBOTS_REDIRECTS = 5;

/** The package is CommonJS exporting the function itself, while its typings declare a default export. */
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

const allowAll = (source: string): RobotsPolicy => ({
  isAllowed: () => true,
  crawlDelaySeconds: undefined,
  source,
  sitemaps: [],
});
/** The run stopped before robots.txt could be asked for: nothing is allowed, nothing is kept. */
const stopped: RobotsPolicy = {
  isAllowed: () => false,
  crawlDelaySeconds: undefined,
  source: 'stopped',
  sitemaps: [],
};
const unreachable = (reason: string): RobotsPolicy => ({
  isAllowed: () => false,
  crawlDelaySeconds: undefined,
  source: `unreachable (${reason})`,
  unreachable: reason,
  sitemaps: [],
});

/**
 * robots.txt of each origin, fetched once per run (docs/reference/crawl-rules.md, robots.txt and
 * robots directives): 2xx is parsed, 4xx allows everything, 5xx or no answer disallows everything
 * on that origin for this run (RFC 9309 2.3.1).
 */
export class RobotsRules {
  private readonly byOrigin = new Map<string, Promise<RobotsPolicy>>();

  constructor(
    private readonly fetcher: HttpFetcher,
    private readonly policy: PageFetchPolicy,
    private readonly limits: FetchLimits,
    private readonly userAgent: string,
    private readonly signal: AbortSignal,
    /** Waits for the host's pace (robots.txt is a request like any other); undefined once stopped. */
    private readonly paced: (host: string) => Promise<HostPermit | undefined>,
  ) {}

  forUrl(url: URL): Promise<RobotsPolicy> {
    let policy = this.byOrigin.get(url.origin);
    if (!policy) {
      policy = this.load(url.origin);
      this.byOrigin.set(url.origin, policy);
    }
    return policy;
  }

  private async load(origin: string): Promise<RobotsPolicy> {
    const robotsUrl = `${origin}/robots.txt`;
    const limits = { ...this.limits, maxRedirects: MAX_ROBOTS_REDIRECTS, maxBodyBytes: MAX_ROBOTS_BYTES };
    const robotsPolicy: PageFetchPolicy = {
      headersFor: (url) => this.policy.headersFor(url),
      refuseRedirect: async () => undefined,
      acceptsContentType: () => true,
    };
    const permit = await this.paced(new URL(origin).host);
    if (permit === undefined) {
      // Asked again, should the run go on: a stop is not an answer of the site.
      this.byOrigin.delete(origin);
      return stopped;
    }
    let result: Awaited<ReturnType<typeof fetchPage>>;
    try {
      result = await fetchPage(
        pacedFetcher(this.fetcher, permit),
        robotsUrl,
        robotsPolicy,
        limits,
        this.signal,
      );
    } finally {
      permit.release();
    }
    if (result.kind === 'failed') {
      // Nothing was sent: the page fetches are refused in turn and get failed rows saying why
      // (disallowing would drop them without a row).
      if (result.failure.kind === 'address_refused')
        return allowAll(`not fetched (${result.failure.message})`);
      // A robots.txt larger than the cap is still an answer; anything else is "unreachable".
      return unreachable(failureReasonOf(result.failure, new URL(robotsUrl), this.limits.timeoutMs));
    }
    if (result.kind === 'excluded') return allowAll('not a robots file');
    if (result.status >= 500) return unreachable(`HTTP ${result.status}`);
    if (result.status >= 400) return allowAll(`unavailable (${result.status})`);
    if (result.status >= 300) return allowAll(`unavailable (${result.status})`);
    const text = decodeText(result.body ?? Buffer.alloc(0), result.headers['content-type']);
    const robots = robotsParser(robotsUrl, text);
    const userAgent = this.userAgent;
    return {
      isAllowed: (url) => robots.isAllowed(url, userAgent) !== false,
      crawlDelaySeconds: robots.getCrawlDelay(userAgent),
      source: 'parsed',
      sitemaps: sitemapUrlsOf(robots.getSitemaps(), robotsUrl),
    };
  }
}

/** `Sitemap:` lines as absolute http(s) URLs (resolved against robots.txt), each once. */
function sitemapUrlsOf(lines: string[], robotsUrl: string): string[] {
  const urls = new Set<string>();
  for (const line of lines) {
    const url = parseCrawlUrl(line.trim(), robotsUrl);
    if (url !== undefined && url.username === '' && url.password === '') urls.add(url.href);
  }
  return [...urls];
}
