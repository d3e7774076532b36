import { createHash } from 'node:crypto';

/**
 * Which parts of a URL take part in its identity (docs/reference/crawl-settings.md,
 * request_fingerprint).
 */
export interface IdentityRules {
  keepQuery: boolean;
  keepFragment: boolean;
}

/**
 * Parses an absolute http(s) URL the way the crawler stores it: WHATWG-normalized (lower-case
 * scheme and host, default port removed, empty path `/`, dot segments resolved) with
 * percent-encoding normalized (decoded where the byte is unreserved, upper-case hex elsewhere).
 * Returns undefined for anything that is not http(s).
 */
export function parseCrawlUrl(raw: string, base?: string | URL): URL | undefined {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.pathname.includes('%')) url.pathname = normalizePercentEncoding(url.pathname);
  if (url.search.includes('%')) url.search = normalizePercentEncoding(url.search);
  return url;
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Decodes percent-escapes of unreserved characters and upper-cases the hex of the others (RFC 3986 6.2.2). */
export function normalizePercentEncoding(value: string): string {
  return value.replace(/%([0-9a-fA-F]{2})/g, (_match, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

/** The identity string of a URL: query parameters sorted (or dropped), fragment kept or dropped. */
export function identityOf(url: URL, rules: IdentityRules): string {
  let identity = `${url.protocol}//${url.host}${url.pathname}`;
  if (rules.keepQuery && url.search.length > 1) identity += `?${sortedQuery(url.search.slice(1))}`;
  if (rules.keepFragment && url.hash.length > 1) identity += url.hash;
  return identity;
}

/** Sorts `a=1&b=2` pairs by name then value, keeping each pair's original encoding. */
function sortedQuery(query: string): string {
  const pairs = query.split('&').filter((pair) => pair !== '');
  if (pairs.length < 2) return pairs.join('&');
  return pairs.sort().join('&');
}

/** A compact fixed-size key of an identity, stored in the frontier's unique index. */
export function fingerprintOf(identity: string): Buffer {
  return createHash('sha1').update(identity).digest().subarray(0, 16);
}

/** The URL as it is fetched: never with a fragment (RFC 9110 4.2.4: fragments are not sent). */
/** A seed as the frontier holds it (and its URL rows name it); undefined when it is not a crawlable URL. */
export function seedUrlOf(raw: string, keepFragment: boolean): URL | undefined {
  const url = parseCrawlUrl(raw);
  if (url !== undefined && !keepFragment) url.hash = '';
  return url;
}

export function fetchUrlOf(url: URL): string {
  // `url.hash` is '' for both "no fragment" and an empty one ("/a#"), so cut at the '#' itself.
  const cut = url.href.indexOf('#');
  return cut < 0 ? url.href : url.href.slice(0, cut);
}
