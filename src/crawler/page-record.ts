import { objectFolderOf } from '../artifacts/folder-path.js';
import type { ObjectSpool } from '../artifacts/object-spool.js';
import type { CrawlSettings } from '../domain/crawl-settings.js';
import type {
  FrontierEntry,
  LinkRow,
  NewFrontierEntry,
  ObjectRef,
  PageCommit,
  UrlRow,
} from '../store/run-data.js';
import { formatApiTimestamp } from '../util/timestamps.js';
import { decodeHtml } from './charset.js';
import { kindByContentType, sourceExtensionOf } from './file-kinds.js';
import { type ExtractedPage, extractPage, parseRobotsDirectives } from './html-extract.js';
import type { PageFetchResult } from './page-fetch.js';
import type { CrawlScope } from './scope.js';
import { fingerprintOf, identityOf, parseCrawlUrl } from './url-identity.js';

/** What turning a fetched page into stored data needs. */
export interface PageRecordContext {
  settings: CrawlSettings;
  scope: CrawlScope;
  spool: ObjectSpool;
  /** Time zone of crawl_datetime in meta.json. */
  timezone: string;
}

type FetchedResult = Exclude<PageFetchResult, { kind: 'excluded' }>;

/**
 * Builds everything a fetched page leaves behind (decisions.md "Artifacts"): its URL row, its
 * files in the spool when it is collected, the links it adds to the frontier and its link rows.
 */
export function recordPage(
  entry: FrontierEntry,
  fetchedUrl: string,
  result: FetchedResult,
  crawlMicros: number,
  context: PageRecordContext,
): PageCommit {
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
  if (!ok || body === undefined) return commit;

  const kind = kindByContentType(headers['content-type']);
  let page: ExtractedPage | undefined;
  let charset: string | undefined;
  if (kind === 'html') {
    const decoded = decodeHtml(body, headers['content-type']);
    charset = decoded.charset;
    page = extractPage(decoded.text);
    followLinks(entry, new URL(result.finalUrl), page, headers, commit, context);
  }
  if (context.settings.collectObjects && kind !== 'other') {
    commit.object = spoolObject(
      entry,
      result.finalUrl,
      status ?? 0,
      headers,
      body,
      page,
      charset,
      crawlMicros,
      context,
    );
  }
  return commit;
}

function followLinks(
  entry: FrontierEntry,
  pageUrl: URL,
  page: ExtractedPage,
  headers: Record<string, string>,
  commit: PageCommit,
  context: PageRecordContext,
): void {
  const { settings, scope } = context;
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
    if (seen.has(identity) || scope.check(url) !== undefined) continue;
    seen.add(identity);
    const discovered: NewFrontierEntry = {
      fingerprint: fingerprintOf(identity),
      url: url.href,
      depth: childDepth,
      referrer: entry.url,
    };
    commit.discovered.push(discovered);
  }
}

function resolveBase(baseHref: string | undefined, pageUrl: URL): URL {
  if (baseHref === undefined) return pageUrl;
  return parseCrawlUrl(baseHref, pageUrl) ?? pageUrl;
}

function linkRowOf(sourceUrl: string, url: URL, text: string, rel: string): LinkRow {
  return { sourceUrl, linkUrl: url.href, anchorText: text, rel };
}

function spoolObject(
  entry: FrontierEntry,
  finalUrl: string,
  status: number,
  headers: Record<string, string>,
  body: Buffer,
  page: ExtractedPage | undefined,
  charset: string | undefined,
  crawlMicros: number,
  context: PageRecordContext,
): ObjectRef {
  const url = new URL(entry.url);
  const meta = {
    url: entry.url,
    last_url: finalUrl !== entry.url ? finalUrl : null,
    http_status: status,
    headers: withoutCookies(headers),
    crawl_datetime: formatApiTimestamp(crawlMicros, context.timezone),
    depth: entry.depth,
    referrer: entry.referrer,
    title: page?.title ?? null,
    charset: charset ?? null,
    robots: page ? [...page.robotsDirectives] : [],
  };
  const metaBytes = Buffer.from(JSON.stringify(meta, null, 2));
  const offset = context.spool.append([body, metaBytes]);
  return {
    folder: objectFolderOf(url),
    sourceName: `source.${sourceExtensionOf(headers['content-type'], url.pathname)}`,
    offset,
    sourceBytes: body.length,
    metaBytes: metaBytes.length,
  };
}

/** Cookies a site sets for the crawler are session material, not page facts: kept out of the bundle. */
function withoutCookies(headers: Record<string, string>): Record<string, string> {
  const copy = { ...headers };
  delete copy['set-cookie'];
  return copy;
}
