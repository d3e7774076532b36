import type { CrawlSettings } from '../domain/index.js';
import { SeedSites } from './seed-sites.js';

/**
 * Where a run's Basic credentials go (docs/reference/crawl-rules.md, Credentials): to URLs
 * matching url_pattern, else only to the hosts of the seed URLs on the seed's port (SeedSites: a
 * subdomain or another port is another host), never in clear text to a site whose seeds are
 * https, never elsewhere. The same rule serves the crawler's
 * fetches and the requests a rendered page makes.
 */
export class CredentialRules {
  private readonly header: string | undefined;
  private readonly seedSites: SeedSites;

  constructor(private readonly settings: CrawlSettings) {
    const auth = settings.authorization;
    this.header =
      auth === null ? undefined : `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}`;
    this.seedSites = new SeedSites(settings.seedUrls);
  }

  /** The Authorization header value for a request to `url`, or undefined when none is sent. */
  authorizationFor(url: URL): string | undefined {
    if (this.header === undefined) return undefined;
    const pattern = this.settings.authorization?.urlPattern;
    const applies = pattern ? pattern.test(url.href) : this.seedSites.takesCredentials(url);
    return applies ? this.header : undefined;
  }
}
