import { objectFolderOf } from '../artifacts/folder-path.js';
import type { TarFile } from '../artifacts/tar-entries.js';
import type { CrawlSettings } from '../domain/crawl-settings.js';
import type { FrontierEntry, LinkRow, NewFrontierEntry, PageCommit, UrlRow } from '../store/run-data.js';
import { formatApiTimestamp } from '../util/timestamps.js';
import { decodeHtml } from './charset.js';
import { kindByContentType, sourceExtensionOf } from './file-kinds.js';
import { type ExtractedPage, extractPage, parseRobotsDirectives } from './html-extract.js';
import type { IdentityCache } from './identity-cache.js';
import type { PageFetchResult } from './page-fetch.js';
import type { CrawlScope } from './scope.js';
import { fingerprintOf, identityOf, parseCrawlUrl } from './url-identity.js';

/** What turning a fetched page into stored data needs. */
export interface PageRecordContext {
  settings: CrawlSettings;
  scope: CrawlScope;
  /** Identities known to be in the frontier already: skips hashing and inserting most links. */
  knownIdentities: IdentityCache;
  /** Time zone of crawl_datetime in meta.json. */
  timezone: string;
}

type FetchedResult = Exclude<PageFetchResult, { kind: 'excluded' }>;

/** A page ready to commit, with the files it adds to the bundle (not yet compressed). */
export interface RecordedPage {
  commit: PageCommit;
  bundleFiles: TarFile[] | undefined;
  /** Identities of `commit.discovered`, to remember once the commit is stored. */
  discoveredIdentities: string[];
}

/**
 * Builds everything a fetched page leaves behind (decisions.md "Artifacts"): its URL row, its
 * bundle files when it is collected, the links it adds to the frontier and its link rows.
 */
export function recordPage(
  entry: FrontierEntry,
  fetchedUrl: string,
  result: FetchedResult,
  crawlMicros: number,
  context: PageRecordContext,
): RecordedPage {
  const headers = result.headers;
  const status = result.status ?? null;
  const body = result.kind === 'response' ? result.body : undefined;
  const ok =
    result.kind === 'response' && result.refusedRedirect === undefined && status !== null && status < 300;
  const headerLength = headers['content-length'];
  const row: UrlRow = {
    crawlUrl: entry.url,
    lastUrl: result.finalUrl !== fetchedUrl ? result.finalUrl : null,
    ok,
    crawlMicros,
    httpStatus: status,
    lastModified: headers['last-modified'] ?? null,
    contentType: headers['content-type'] ?? null,
    contentLength:
      headerLength !== undefined && /^\d+$/.test(headerLength)
        ? Number(headerLength)
        : (body?.length ?? null),
  };
  const commit: PageCommit = { frontierSeq: entry.seq, row, object: undefined, discovered: [], links: [] };
  const discoveredIdentities: string[] = [];
  if (!ok || body === undefined) return { commit, bundleFiles: undefined, discoveredIdentities };

  const kind = kindByContentType(headers['content-type']);
  let page: ExtractedPage | undefined;
  let charset: string | undefined;
  if (kind === 'html') {
    const decoded = decodeHtml(body, headers['content-type']);
    charset = decoded.charset;
    page = extractPage(decoded.text);
    followLinks(entry, new URL(result.finalUrl), page, headers, commit, discoveredIdentities, context);
  }
  const collects = context.settings.collectObjects && kind !== 'other';
  const bundleFiles = collects
    ? bundleFilesOf(
        entry,
        fetchedUrl,
        result.finalUrl,
        status ?? 0,
        headers,
        body,
        page,
        charset,
        crawlMicros,
        context,
      )
    : undefined;
  return { commit, bundleFiles, discoveredIdentities };
}

function followLinks(
  entry: FrontierEntry,
  pageUrl: URL,
  page: ExtractedPage,
  headers: Record<string, string>,
  commit: PageCommit,
  discoveredIdentities: string[],
  context: PageRecordContext,
): void {
  const { settings, scope, knownIdentities } = context;
  const directives = new Set([
    ...page.robotsDirectives,
    ...parseRobotsDirectives(headers['x-robots-tag'] ?? ''),
  ]);
  const followsAny = !(settings.obeyRobots && directives.has('nofollow'));
  const childDepth = entry.depth + 1;
  const followsByDepth = scope.allowsDepth(childDepth);
  const base = resolveBase(page.baseHref, pageUrl);
  const seen = new Set<string>();
  for (const link of page.links) {
    const url = parseCrawlUrl(link.href, base);
    if (url === undefined) continue;
    if (settings.collectLinkList) commit.links.push(linkRowOf(entry.url, url, link.text, link.rel));
    if (!followsAny || !followsByDepth || (link.nofollow && settings.obeyRobots)) continue;
    if (!settings.keepFragment) url.hash = '';
    const identity = identityOf(url, settings);
    if (seen.has(identity) || knownIdentities.has(identity) || scope.check(url) !== undefined) continue;
    seen.add(identity);
    const discovered: NewFrontierEntry = {
      fingerprint: fingerprintOf(identity),
      url: url.href,
      depth: childDepth,
      referrer: entry.url,
    };
    commit.discovered.push(discovered);
    discoveredIdentities.push(identity);
  }
}

function resolveBase(baseHref: string | undefined, pageUrl: URL): URL {
  if (baseHref === undefined) return pageUrl;
  return parseCrawlUrl(baseHref, pageUrl) ?? pageUrl;
}

function linkRowOf(sourceUrl: string, url: URL, text: string, rel: string): LinkRow {
  return { sourceUrl, linkUrl: url.href, anchorText: text, rel };
}

/** `source.<ext>` and `meta.json` in the page's folder of crawl_objects.tar.gz. */
function bundleFilesOf(
  entry: FrontierEntry,
  fetchedUrl: string,
  finalUrl: string,
  status: number,
  headers: Record<string, string>,
  body: Buffer,
  page: ExtractedPage | undefined,
  charset: string | undefined,
  crawlMicros: number,
  context: PageRecordContext,
): TarFile[] {
  const url = new URL(entry.url);
  const meta = {
    url: entry.url,
    last_url: finalUrl !== fetchedUrl ? finalUrl : null,
    http_status: status,
    headers: withoutCookies(headers),
    crawl_datetime: formatApiTimestamp(crawlMicros, context.timezone),
    depth: entry.depth,
    referrer: entry.referrer,
    title: page?.title ?? null,
    charset: charset ?? null,
    robots: page ? [...page.robotsDirectives] : [],
  };
  const folder = objectFolderOf(url);
  const mtimeSeconds = Math.floor(crawlMicros / 1_000_000);
  return [
    {
      name: `${folder}source.${sourceExtensionOf(headers['content-type'], url.pathname)}`,
      data: body,
      mtimeSeconds,
    },
    { name: `${folder}meta.json`, data: Buffer.from(JSON.stringify(meta, null, 2)), mtimeSeconds },
  ];
}

/** Cookies a site sets for the crawler are session material, not page facts: kept out of the bundle. */
function withoutCookies(headers: Record<string, string>): Record<string, string> {
  const copy = { ...headers };
  delete copy['set-cookie'];
  return copy;
}
