import type { CrawlSettings } from '../domain/crawl-settings.js';

/**
 * Where a run's Basic credentials go (decisions.md "authorizations"): to URLs matching
 * url_pattern, else only to the hosts of the seed URLs, never elsewhere. The same rule serves the
 * crawler's fetches and the requests a rendered page makes.
 */
export class CredentialRules {
  private readonly header: string | undefined;
  private readonly seedHosts: Set<string>;

  constructor(private readonly settings: CrawlSettings) {
    const auth = settings.authorization;
    this.header =
      auth === null ? undefined : `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}`;
    this.seedHosts = new Set(settings.seedUrls.map((seed) => new URL(seed).host));
  }

  /** The Authorization header value for a request to `url`, or undefined when none is sent. */
  authorizationFor(url: URL): string | undefined {
    if (this.header === undefined) return undefined;
    const pattern = this.settings.authorization?.urlPattern;
    const applies = pattern ? pattern.test(url.href) : this.seedHosts.has(url.host);
    return applies ? this.header : undefined;
  }
}
