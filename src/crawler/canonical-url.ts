/**
 * The canonical URL a page names for itself (docs/reference/crawl-rules.md, Canonical pages): the
 * HTTP `Link: <url>; rel="canonical"` header (the only way a PDF can say it), else the first
 * `<link rel="canonical" href>` of its HTML. It counts only when it is another URL of the run's
 * scope: a canonical on another site, or naming the page itself (by the URL it was asked for,
 * redirected to or shown at), says nothing here.
 */
import type { CrawlSettings } from '../domain/index.js';
import type { CrawlScope } from './scope.js';
import { identityOf, parseCrawlUrl } from './url-identity.js';

/**
 * The target of the first `rel=canonical` link of a Link header (RFC 8288), as written. One pass
 * over the text: quoted parameter values may hold `;` and `,`, and a `<` without its `>` ends the
 * header, so a hostile header costs time linear in its length.
 */
export function canonicalOfLinkHeader(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  let at = 0;
  while (at < header.length) {
    const open = header.indexOf('<', at);
    if (open < 0) return undefined;
    const close = header.indexOf('>', open + 1);
    if (close < 0) return undefined;
    const target = header.slice(open + 1, close).trim();
    const params = linkParams(header, close + 1);
    const rel = (params.values.get('rel') ?? '').toLowerCase().split(/\s+/);
    if (rel.includes('canonical')) return target;
    at = params.end;
  }
  return undefined;
}

/** The `; name=value` parameters of one link value from `start`, up to the comma that ends it. */
function linkParams(header: string, start: number): { values: Map<string, string>; end: number } {
  const values = new Map<string, string>();
  let at = start;
  while (at < header.length) {
    const char = header[at]!;
    if (char === ',') return { values, end: at + 1 };
    if (char !== ';') {
      at += 1;
      continue;
    }
    const nameStart = at + 1;
    let nameEnd = nameStart;
    while (nameEnd < header.length && !'=;,'.includes(header[nameEnd]!)) nameEnd += 1;
    const name = header.slice(nameStart, nameEnd).trim().toLowerCase();
    at = nameEnd;
    if (header[at] !== '=') continue;
    at += 1;
    while (header[at] === ' ' || header[at] === '\t') at += 1;
    let value = '';
    if (header[at] === '"') {
      at += 1;
      while (at < header.length && header[at] !== '"') {
        if (header[at] === '\\') at += 1;
        value += header[at] ?? '';
        at += 1;
      }
      at += 1;
    } else {
      const valueStart = at;
      while (at < header.length && !';,'.includes(header[at]!)) at += 1;
      value = header.slice(valueStart, at).trim();
    }
    // The first occurrence of a parameter counts (RFC 8288 3.3 for rel).
    if (!values.has(name)) values.set(name, value);
  }
  return { values, end: at };
}

/** Where the canonical was written and the URLs the page itself goes by. */
export interface CanonicalCandidates {
  headerHref: string | undefined;
  /** Resolved against the response's final URL. */
  responseUrl: URL;
  elementHref: string | undefined;
  /** The element's base: `<base href>`, else the address the page's links are resolved against. */
  elementBase: URL;
  /** Every URL the page goes by: asked for, redirected to, shown at. */
  ownUrls: readonly URL[];
}

/**
 * The page's canonical URL when it names another URL of the run: the header wins over the
 * element. Its fragment is dropped (a canonical names a document, not a place in it).
 */
export function canonicalUrlOf(
  candidates: CanonicalCandidates,
  settings: CrawlSettings,
  scope: CrawlScope,
): URL | undefined {
  const fromHeader = candidates.headerHref !== undefined && candidates.headerHref !== '';
  const written = fromHeader ? candidates.headerHref : candidates.elementHref;
  if (written === undefined || written === '') return undefined;
  const url = parseCrawlUrl(written, fromHeader ? candidates.responseUrl : candidates.elementBase);
  if (url === undefined || url.username !== '' || url.password !== '') return undefined;
  url.hash = '';
  if (scope.check(url) !== undefined) return undefined;
  const identity = identityOf(url, { ...settings, keepFragment: false });
  const own = candidates.ownUrls.some(
    (pageUrl) => identityOf(pageUrl, { ...settings, keepFragment: false }) === identity,
  );
  return own ? undefined : url;
}
