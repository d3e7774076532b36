import type { CorpusSpec } from './corpus-spec.js';

/**
 * The URLs of a set as its judgments name them (`baseUrl` + the page's path in the set's folder),
 * and of the pages a crawl of the served site fetched (`http://127.0.0.1:PORT/ja/mod/core.html`),
 * made the same: the judgments then read the crawl's results as they read pages loaded from disk.
 */
export class SiteUrls {
  /**
   * @param crawlRoot where the set's folder is on the crawled site (`http://127.0.0.1:PORT/ja/`);
   *   the set's own `baseUrl` when the pages were read from disk.
   */
  constructor(
    private readonly spec: Pick<CorpusSpec, 'baseUrl' | 'isListing'>,
    private readonly crawlRoot: string = spec.baseUrl,
  ) {}

  /**
   * The set's URL of a crawled one. A folder's URL (`/`, `mod/`) is its `index.html`, the file
   * the site answers it with, so both addresses of that page are one page of the set.
   */
  setUrlOf(url: string): string {
    if (!url.startsWith(this.crawlRoot)) return url;
    const relative = url.slice(this.crawlRoot.length).replace(/[?#].*$/, '');
    return new URL(
      relative === '' || relative.endsWith('/') ? `${relative}index.html` : relative,
      this.spec.baseUrl,
    ).href;
  }

  /** The path of a set's URL in the set's folder (`mod/core.html`); undefined for another site's URL. */
  relativePathOf(setUrl: string): string | undefined {
    if (!setUrl.startsWith(this.spec.baseUrl)) return undefined;
    const relative = setUrl.slice(this.spec.baseUrl.length);
    try {
      return decodeURIComponent(relative);
    } catch {
      return relative;
    }
  }

  /** Whether a set's URL is one of the set's listing pages (corpus-spec.ts, isListing). */
  isListing(setUrl: string): boolean {
    const relative = this.relativePathOf(setUrl);
    return relative !== undefined && this.spec.isListing(relative);
  }
}
