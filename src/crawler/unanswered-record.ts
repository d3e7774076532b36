import { objectFolderOf, type TarFile } from '../artifacts/index.js';
import type { CrawlSettings } from '../domain/index.js';
import type { FrontierEntry, UrlRow } from '../run-data/index.js';
import { formatApiTimestamp } from '../util/index.js';
import { type RecordedPage, withoutCredentials } from './page-record.js';

/**
 * What a URL that got no HTTP answer leaves behind (docs/api.md, Artifact contents): a failed row
 * without status and, when page files are collected, a folder holding only a meta.json whose
 * `fetch_error` says why (a DNS failure, a refused connection, a seed refused by robots.txt...).
 */
export function recordUnanswered(
  entry: FrontierEntry,
  reason: string,
  crawlMicros: number,
  context: { settings: CrawlSettings; timezone: string },
): RecordedPage {
  const url = withoutCredentials(entry.url);
  const row: UrlRow = {
    crawlUrl: url,
    lastUrl: null,
    ok: false,
    crawlMicros,
    httpStatus: null,
    lastModified: null,
    contentType: null,
    contentLength: null,
    fetchError: reason,
  };
  const commit = { frontierSeq: entry.seq, row, object: undefined, discovered: [], links: [] };
  if (!context.settings.collectObjects) return { commit, bundleFiles: undefined, discoveredIdentities: [] };
  const meta = {
    url,
    last_url: null,
    http_status: null,
    headers: {},
    crawl_datetime: formatApiTimestamp(crawlMicros, context.timezone),
    depth: entry.depth,
    referrer: entry.referrer === null ? null : withoutCredentials(entry.referrer),
    ...(entry.lastmod !== null && { sitemap_lastmod: entry.lastmod }),
    title: null,
    charset: null,
    robots: [],
    fetch_error: reason,
  };
  const file: TarFile = {
    name: `${objectFolderOf(new URL(entry.url))}meta.json`,
    data: Buffer.from(JSON.stringify(meta, null, 2)),
    mtimeSeconds: Math.floor(crawlMicros / 1_000_000),
  };
  return { commit, bundleFiles: [file], discoveredIdentities: [] };
}
