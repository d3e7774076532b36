/**
 * "The site" of a run without allow patterns (docs/api.md, Instant crawl): a URL belongs to it
 * when its host equals a seed's host (or, for the crawl scope, is a subdomain of it) and its
 * port is that seed's port. The scheme may differ, since http and https of a host are one site,
 * so the default ports 80 and 443 count as one port; any other port is another site (another
 * server on the same machine).
 */
export class SeedSites {
  private readonly sites: readonly {
    hostname: string;
    suffix: string;
    port: string;
    /** A seed of this site is plain http: the site is not known to want https only. */
    plainHttp: boolean;
  }[];

  constructor(seedUrls: readonly string[]) {
    const byKey = new Map<string, { hostname: string; suffix: string; port: string; plainHttp: boolean }>();
    for (const raw of seedUrls) {
      const url = new URL(raw);
      const port = sitePortOf(url);
      const key = `${url.hostname} ${port}`;
      const site = byKey.get(key) ?? {
        hostname: url.hostname,
        suffix: `.${url.hostname}`,
        port,
        plainHttp: false,
      };
      site.plainHttp ||= url.protocol === 'http:';
      byKey.set(key, site);
    }
    this.sites = [...byKey.values()];
  }

  /**
   * The URL is on a seed's host and port, and not plain http where the seeds of that site are
   * all https: credentials go only there, so a link to the http address of an https site never
   * sends them in clear text.
   */
  takesCredentials(url: URL): boolean {
    const port = sitePortOf(url);
    return this.sites.some(
      (site) =>
        site.port === port && url.hostname === site.hostname && (url.protocol === 'https:' || site.plainHttp),
    );
  }

  /**
   * The sites as the credential rule sees them, sorted: `https://host` for a site that gets
   * credentials over https only, `http://host` for one that gets them over http and https, with
   * `:port` when the port is not the default one.
   */
  credentialSites(): string[] {
    const labels = this.sites.map(
      (site) =>
        `${site.plainHttp ? 'http' : 'https'}://${site.hostname}${site.port === 'default' ? '' : `:${site.port}`}`,
    );
    return [...new Set(labels)].sort();
  }

  /** The URL is on a seed's host or one of its subdomains, on that seed's port (the crawl scope). */
  hasHostOrSubdomain(url: URL): boolean {
    const port = sitePortOf(url);
    return this.sites.some(
      (site) => site.port === port && (url.hostname === site.hostname || url.hostname.endsWith(site.suffix)),
    );
  }
}

/** The default ports of http and https, which a site's http and https addresses share. */
const DEFAULT_PORTS: ReadonlySet<string> = new Set(['80', '443']);

/** The URL's port as the site rule compares it: `default` for 80 and 443, else the number. */
export function sitePortOf(url: URL): string {
  // The WHATWG parser leaves `port` empty for the scheme's own default port.
  const port = url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80';
  return DEFAULT_PORTS.has(port) ? 'default' : port;
}
