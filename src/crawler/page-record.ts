import { objectFolderOf, type TarFile } from '../artifacts/index.js';
import type { RenderedPage } from '../browser/index.js';
import { type CrawlSettings, takesLinksFromRenderedDom } from '../domain/index.js';
import type { FrontierEntry, LinkRow, NewFrontierEntry, PageCommit, UrlRow } from '../run-data/index.js';
import { formatApiTimestamp } from '../util/index.js';
import { decodeHtml } from './charset.js';
import { kindByContentType, sourceExtensionOf } from './file-kinds.js';
import { canonicalOfLinkHeader, canonicalUrlOf } from './canonical-url.js';
import { type ExtractedPage, extractPage, parseRobotsDirectives } from './html-extract.js';
import type { IdentityCache } from './identity-cache.js';
import type { PageFetchResult } from './page-fetch.js';
import type { RenderOutcome } from './page-rendering.js';
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

export type FetchedResult = Exclude<PageFetchResult, { kind: 'excluded' }>;

/** A page ready to commit, with the files it adds to the bundle (not yet compressed). */
export interface RecordedPage {
  commit: PageCommit;
  bundleFiles: TarFile[] | undefined;
  /** Identities of `commit.discovered`, remembered as soon as the page is prepared (PageRecorder). */
  discoveredIdentities: string[];
}

/**
 * Builds everything a fetched page leaves behind (docs/reference/artifacts.md): its URL row, its
 * bundle files when it is collected, the links it adds to the frontier and its link rows.
 */
export function recordPage(
  entry: FrontierEntry,
  fetchedUrl: string,
  result: FetchedResult,
  rendering: RenderOutcome | undefined,
  crawlMicros: number,
  context: PageRecordContext,
): RecordedPage {
  const headers = result.headers;
  const status = result.status ?? null;
  const body = result.kind === 'response' ? result.body : undefined;
  const fetched =
    result.kind === 'response' &&
    result.refusedRedirect === undefined &&
    status !== null &&
    (status < 300 || result.kept === true);
  const ok = fetched && rendering?.kind !== 'failed';
  const headerLength = headers['content-length'];
  const row: UrlRow = {
    crawlUrl: withoutCredentials(entry.url),
    lastUrl: result.finalUrl !== fetchedUrl ? withoutCredentials(result.finalUrl) : null,
    ok,
    crawlMicros,
    httpStatus: status,
    lastModified: headers['last-modified'] ?? null,
    contentType: headers['content-type'] ?? null,
    contentLength:
      headerLength !== undefined && /^\d+$/.test(headerLength)
        ? Number(headerLength)
        : (body?.length ?? null),
    fetchError: null,
    ...(result.kind === 'response' &&
      result.keptWithoutRequest !== undefined && { keptWithoutRequest: result.keptWithoutRequest }),
  };
  const commit: PageCommit = { frontierSeq: entry.seq, row, object: undefined, discovered: [], links: [] };
  const discoveredIdentities: string[] = [];
  if (!fetched || body === undefined) return { commit, bundleFiles: undefined, discoveredIdentities };
  const response = {
    entry,
    fetchedUrl,
    finalUrl: result.finalUrl,
    status: status ?? 0,
    headers,
    body,
    crawlMicros,
    timezone: context.timezone,
  };
  if (rendering?.kind === 'failed') {
    // The row fails; the bundle still keeps the fetched source and says why rendering failed.
    const bundleFiles = bundleFilesOf({
      ...response,
      collectsSource: context.settings.collectObjects,
      page: undefined,
      rendered: undefined,
      renderError: rendering.reason,
      charset: undefined,
    });
    return { commit, bundleFiles, discoveredIdentities };
  }

  const rendered = rendering?.kind === 'rendered' ? rendering.page : undefined;
  const kind = kindByContentType(headers['content-type']);
  let page: ExtractedPage | undefined;
  let charset: string | undefined;
  let pageUrl = new URL(result.finalUrl);
  if (kind === 'html') {
    const decoded = decodeHtml(body, headers['content-type']);
    charset = decoded.charset;
    const fromDom = rendered !== undefined && takesLinksFromRenderedDom(context.settings);
    page = fromDom ? renderedPageOf(rendered) : extractPage(decoded.text);
    // Rendered links are relative to where the page ended up (history.pushState may move it).
    if (fromDom && /^https?:/.test(rendered.location)) pageUrl = new URL(rendered.location);
    followLinks(entry, pageUrl, page, headers, commit, discoveredIdentities, context);
  }
  const canonical = canonicalUrlOf(
    {
      headerHref: canonicalOfLinkHeader(headers.link),
      responseUrl: new URL(result.finalUrl),
      elementHref: page?.canonicalHref,
      elementBase: page === undefined ? pageUrl : resolveBase(page.baseHref, pageUrl),
      ownUrls: [new URL(entry.url), new URL(fetchedUrl), new URL(result.finalUrl), pageUrl],
    },
    context.settings,
    context.scope,
  );
  if (canonical !== undefined) queueCanonical(entry, canonical, commit, discoveredIdentities, context);
  const bundleFiles = bundleFilesOf({
    ...response,
    collectsSource: context.settings.collectObjects && kind !== 'other',
    page,
    rendered,
    charset,
    canonical: canonical?.href,
    keptSince: result.kind === 'response' ? result.keptSince : undefined,
    ...(result.kind === 'response' &&
      result.keptWithoutRequest !== undefined && {
        keptWithoutRequest: result.keptWithoutRequest,
        confirmedAt: result.confirmedAt,
      }),
  });
  return { commit, bundleFiles, discoveredIdentities };
}

/**
 * Links, title and robots directives of the rendered DOM (wait_type 2). A top-level navigation
 * the page's scripts started (a script redirect) counts as a link of the page.
 */
function renderedPageOf(rendered: RenderedPage): ExtractedPage {
  const page = extractPage(rendered.dom);
  for (const href of rendered.scriptNavigations) {
    page.links.push({ href, text: '', rel: '', nofollow: false });
  }
  return page;
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
    // Credentials written into a link (http://user:pass@host/) are neither followed nor recorded:
    // a run's credentials come from its authorizations only.
    // Each URL setter re-parses the whole URL, so only the ones that change anything are called.
    if (url.username !== '') url.username = '';
    if (url.password !== '') url.password = '';
    if (settings.collectLinkList) commit.links.push(linkRowOf(entry.url, url, link.text, link.rel));
    if (!followsAny || !followsByDepth || (link.nofollow && settings.obeyRobots)) continue;
    // `hash` reads '' for an empty fragment too ("/a#"), which the href still ends with.
    if (!settings.keepFragment && url.href.includes('#')) url.hash = '';
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

/**
 * The page's canonical URL joins the frontier like a link of the page (one hop deeper, within the
 * depth limit), whatever nofollow says: it is the page's real address.
 */
function queueCanonical(
  entry: FrontierEntry,
  canonical: URL,
  commit: PageCommit,
  discoveredIdentities: string[],
  context: PageRecordContext,
): void {
  const depth = entry.depth + 1;
  if (!context.scope.allowsDepth(depth)) return;
  const identity = identityOf(canonical, context.settings);
  if (context.knownIdentities.has(identity) || discoveredIdentities.includes(identity)) return;
  commit.discovered.push({
    fingerprint: fingerprintOf(identity),
    url: canonical.href,
    depth,
    referrer: entry.url,
  });
  discoveredIdentities.push(identity);
}

function resolveBase(baseHref: string | undefined, pageUrl: URL): URL {
  if (baseHref === undefined) return pageUrl;
  return parseCrawlUrl(baseHref, pageUrl) ?? pageUrl;
}

function linkRowOf(sourceUrl: string, url: URL, text: string, rel: string): LinkRow {
  return { sourceUrl: withoutCredentials(sourceUrl), linkUrl: url.href, anchorText: text, rel };
}

interface BundleInput {
  entry: FrontierEntry;
  fetchedUrl: string;
  finalUrl: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** crawl_object collected: source.<ext> (and dom.html when rendered). */
  collectsSource: boolean;
  page: ExtractedPage | undefined;
  rendered: RenderedPage | undefined;
  /** Why rendering failed, when it did (meta.json `render_error`). */
  renderError?: string;
  /** Another URL of the run the page names as its canonical one (meta.json `canonical`). */
  canonical?: string | undefined;
  /** A kept copy: when it was fetched whole (meta.json `stored_datetime`). */
  keptSince?: string | undefined;
  /** A copy kept without a request: why (meta.json `kept_without_request`). */
  keptWithoutRequest?: string;
  /** With keptWithoutRequest: when the site last answered for it (meta.json `confirmed_datetime`). */
  confirmedAt?: string | undefined;
  charset: string | undefined;
  crawlMicros: number;
  timezone: string;
}

/**
 * The page's folder of crawl_objects.tar.gz: `source.<ext>`, `dom.html` and `meta.json` when
 * objects are collected, and `cap_org.jpg` whenever there is a screenshot (even with crawl_object
 * 1, then beside meta.json only: docs/reference/artifacts.md, Property files). Undefined when the
 * page adds nothing.
 */
function bundleFilesOf(input: BundleInput): TarFile[] | undefined {
  const { entry, rendered, page, crawlMicros } = input;
  const screenshot = rendered?.screenshot;
  if (!input.collectsSource && screenshot === undefined) return undefined;
  const url = new URL(entry.url);
  const meta = {
    url: withoutCredentials(entry.url),
    last_url: input.finalUrl !== input.fetchedUrl ? withoutCredentials(input.finalUrl) : null,
    http_status: input.status,
    headers: recordedHeaders(input.headers),
    crawl_datetime: formatApiTimestamp(crawlMicros, input.timezone),
    depth: entry.depth,
    referrer: entry.referrer === null ? null : withoutCredentials(entry.referrer),
    ...(entry.lastmod !== null && { sitemap_lastmod: entry.lastmod }),
    ...(input.canonical !== undefined && { canonical: withoutCredentials(input.canonical) }),
    ...(input.keptSince !== undefined && { stored_datetime: input.keptSince }),
    ...(input.keptWithoutRequest !== undefined && { kept_without_request: input.keptWithoutRequest }),
    ...(input.confirmedAt !== undefined && { confirmed_datetime: input.confirmedAt }),
    title: page?.title ?? null,
    charset: input.charset ?? null,
    robots: page ? [...page.robotsDirectives] : [],
    ...(input.renderError !== undefined && { render_error: input.renderError }),
    ...(rendered && {
      rendered: {
        network_idle: rendered.networkIdle,
        script_navigations: rendered.scriptNavigations,
        blocked_requests: rendered.blockedRequests,
      },
    }),
  };
  const folder = objectFolderOf(url);
  const mtimeSeconds = Math.floor(crawlMicros / 1_000_000);
  const files: TarFile[] = [];
  if (input.collectsSource) {
    const extension = sourceExtensionOf(input.headers['content-type'], url.pathname);
    files.push({ name: `${folder}source.${extension}`, data: input.body, mtimeSeconds });
    if (rendered) files.push({ name: `${folder}dom.html`, data: Buffer.from(rendered.dom), mtimeSeconds });
  }
  files.push({ name: `${folder}meta.json`, data: Buffer.from(JSON.stringify(meta, null, 2)), mtimeSeconds });
  if (screenshot !== undefined) {
    files.push({ name: `${folder}cap_org.jpg`, data: screenshot, mtimeSeconds, compressed: true });
  }
  return files;
}

/**
 * Response headers kept out of meta.json: cookies a site sets for the crawler are session material,
 * not page facts, and credential headers (a server reflecting the crawler's Authorization) would
 * put the run's password into the bundle. meta.json holds response headers only: the request
 * headers, with the run's Basic credentials, are never recorded.
 */
const UNRECORDED_HEADERS = ['set-cookie', 'set-cookie2', 'cookie', 'authorization', 'proxy-authorization'];
/** Response headers whose value is a URL, written without the credentials it may carry. */
const URL_HEADERS = ['location', 'content-location'];

function recordedHeaders(headers: Record<string, string>): Record<string, string> {
  const copy = { ...headers };
  for (const name of UNRECORDED_HEADERS) delete copy[name];
  for (const name of URL_HEADERS) {
    const value = copy[name];
    if (value !== undefined) copy[name] = withoutCredentials(value);
  }
  return copy;
}

/** The URL without user name and password (`http://user:pass@host/` is written `http://host/`). */
export function withoutCredentials(href: string): string {
  if (!href.includes('@')) return href;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    // Not absolute: only a network-path reference (//user:pass@host/) can carry credentials.
    return href.replace(/^([\\/]{2})[^\\/?#]*@/, '$1');
  }
  if (url.username === '' && url.password === '') return href;
  url.username = '';
  url.password = '';
  return url.href;
}
