/**
 * The canonical URL a page names for itself (docs/reference/crawl-rules.md, Canonical pages): the
 * HTTP `Link: <url>; rel="canonical"` header (the only way a PDF can say it), else the first
 * `<link rel="canonical" href>` of its HTML. It counts only when it is another URL of the run's
 * scope: a canonical on another site, or equal to the page's own URL, says nothing here.
 */
import type { CrawlSettings } from '../domain/crawl-settings.js';
import type { CrawlScope } from './scope.js';
import { identityOf, parseCrawlUrl } from './url-identity.js';

/** One `<uri>; param; param` element of a Link header: the URI, and the rel tokens. */
const LINK_VALUE = /<([^>]*)>((?:\s*;\s*[^;,]*)*)/g;
const REL_PARAM = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,"]+))/i;

/** The target of the first `rel=canonical` element of a Link header, as written. */
export function canonicalOfLinkHeader(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  for (const match of header.matchAll(LINK_VALUE)) {
    const rel = REL_PARAM.exec(match[2] ?? '');
    const tokens = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (tokens.includes('canonical')) return match[1]!.trim();
  }
  return undefined;
}

/**
 * The page's canonical URL when it names another URL of the run: `headerHref` wins over
 * `elementHref`; both are resolved against `base` (the element's `<base href>` or the page).
 */
export function canonicalUrlOf(
  candidates: { headerHref: string | undefined; elementHref: string | undefined; base: URL },
  pageUrl: URL,
  settings: CrawlSettings,
  scope: CrawlScope,
): URL | undefined {
  const written = candidates.headerHref ?? candidates.elementHref;
  if (written === undefined || written === '') return undefined;
  const url = parseCrawlUrl(written, candidates.headerHref !== undefined ? pageUrl : candidates.base);
  if (url === undefined || url.username !== '' || url.password !== '') return undefined;
  if (!settings.keepFragment) url.hash = '';
  if (scope.check(url) !== undefined) return undefined;
  return identityOf(url, settings) === identityOf(pageUrl, settings) ? undefined : url;
}
