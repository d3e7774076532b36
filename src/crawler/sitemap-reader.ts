/**
 * Reads a run's sitemaps (docs/reference/crawl-rules.md, Sitemaps): the files robots.txt names
 * (or `/sitemap.xml`) and those the setting lists, sitemap indexes followed, gzip files unpacked.
 * Their URLs go to the frontier in batches while the crawl runs. Every limit is a bound with a
 * report, never a failure of the run: a file larger than 50 MB is not read, a file listing more
 * than 50,000 URLs gives its first 50,000, and a run reads at most MAX_SITEMAP_FILES files and
 * takes at most MAX_SITEMAP_URLS URLs from them.
 */
import { gunzipSync } from 'node:zlib';
import { TextDecoder } from 'node:util';
import type { SitemapFileRecord } from '../run-data/index.js';
import type { PageFetchResult } from './page-fetch.js';
import { parseCrawlUrl } from './url-identity.js';
import { MAX_SITEMAP_ENTRIES, NotASitemapError, type ParsedSitemap, parseSitemap } from './sitemap-parse.js';

/** The protocol's size limit of a sitemap file, uncompressed. */
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;
/** Sitemap files one run reads, indexes and children together. */
export const MAX_SITEMAP_FILES = 1000;
/** URLs one run takes from its sitemaps. */
export const MAX_SITEMAP_URLS = 1_000_000;
/** An index may list indexes (the protocol says it should not); this many levels are followed. */
export const MAX_INDEX_NESTING = 3;
/** URLs written to the frontier at a time, so the crawl can start on them while the file is read. */
const ENQUEUE_BATCH = 1000;

export interface SitemapSource {
  url: string;
  /** `/sitemap.xml` tried because robots.txt named none: unless it is a sitemap, nothing is reported. */
  guessed: boolean;
}

/** A page URL of a sitemap as the frontier takes it; the reader only gives its lastmod. */
export interface ListedUrl {
  loc: string;
  lastmod: string | null;
}

export interface SitemapReaderDeps {
  /** Fetches a sitemap file at the host's pace, redirects followed, the body capped at MAX_SITEMAP_BYTES. */
  fetch(url: string): Promise<PageFetchResult>;
  /** Puts the listed URLs that are in the run's scope into its frontier; answers how many were new. */
  enqueue(urls: readonly ListedUrl[], fileUrl: string): number;
  /** Keeps one file's report (in the run store, so a resumed run still tells it). */
  record(report: SitemapFileRecord): void;
  /** Why a fetch failed, in the words of the run's URL rows. */
  failureReason(result: Extract<PageFetchResult, { kind: 'failed' }>, url: string): string;
  /** True once the run stops: reading ends without reporting the rest. */
  stopped(): boolean;
}

interface QueuedFile extends SitemapSource {
  nesting: number;
}

/**
 * Reads the sitemaps of `sources` and the files their indexes list, one file at a time; true when
 * every file was read (or reported), false when the run stopped the reading first.
 */
export async function readSitemaps(
  sources: readonly SitemapSource[],
  deps: SitemapReaderDeps,
): Promise<boolean> {
  const queue: QueuedFile[] = [];
  const seen = new Set<string>();
  let filesRead = 0;
  /** Files left out because the run had as many as it reads; named in the report once. */
  let overCap: { first: string; count: number } | undefined;
  // Only as many files are ever queued as the run may read, so a huge index costs no memory.
  const push = (file: QueuedFile) => {
    const url = parseCrawlUrl(file.url);
    // A file URL with credentials in it is neither fetched nor repeated in a report.
    if (url === undefined || url.username !== '' || url.password !== '' || seen.has(url.href)) return;
    if (filesRead + queue.length >= MAX_SITEMAP_FILES) {
      overCap ??= { first: url.href, count: 0 };
      overCap.count += 1;
      return;
    }
    seen.add(url.href);
    queue.push({ ...file, url: url.href });
  };
  for (const source of sources) push({ ...source, nesting: 0 });
  let urlsTaken = 0;
  while (queue.length > 0) {
    if (deps.stopped()) return false;
    const file = queue.shift()!;
    filesRead += 1;
    const read = await fetchSitemap(file, deps);
    if (deps.stopped()) return false;
    // A guessed /sitemap.xml that is no sitemap (a 404, or the page a site answers for any path)
    // only means the site has none.
    if ('problem' in read && file.guessed) continue;
    if ('problem' in read) {
      deps.record({ url: file.url, kind: null, listed: 0, added: 0, problem: read.problem });
      continue;
    }
    const notes = notesOf(read.parsed);
    if (read.parsed.kind === 'index') {
      if (file.nesting >= MAX_INDEX_NESTING) {
        deps.record({
          url: file.url,
          kind: 'index',
          listed: 0,
          added: 0,
          problem: `a sitemap index nested more than ${MAX_INDEX_NESTING} deep; not followed`,
        });
        continue;
      }
      for (const child of read.parsed.entries)
        push({ url: child.loc, guessed: false, nesting: file.nesting + 1 });
      deps.record({
        url: file.url,
        kind: 'index',
        listed: read.parsed.entries.length,
        added: 0,
        problem: joined(notes),
      });
      continue;
    }
    const room = MAX_SITEMAP_URLS - urlsTaken;
    const entries = read.parsed.entries.slice(0, Math.max(0, room));
    if (entries.length < read.parsed.entries.length) {
      notes.push(
        `${read.parsed.entries.length - entries.length} URL(s) not taken: a run takes at most ${MAX_SITEMAP_URLS} URLs from sitemaps`,
      );
    }
    urlsTaken += entries.length;
    let added = 0;
    for (let start = 0; start < entries.length && !deps.stopped(); start += ENQUEUE_BATCH) {
      added += deps.enqueue(entries.slice(start, start + ENQUEUE_BATCH), file.url);
    }
    deps.record({
      url: file.url,
      kind: read.parsed.kind,
      listed: entries.length,
      added,
      problem: joined(notes),
    });
  }
  if (overCap !== undefined) {
    deps.record({
      url: overCap.first,
      kind: null,
      listed: 0,
      added: 0,
      problem: `not read, nor ${overCap.count - 1} more sitemap entr${overCap.count === 2 ? 'y' : 'ies'} of indexes: a run reads at most ${MAX_SITEMAP_FILES} sitemap files`,
    });
  }
  return !deps.stopped();
}

type FetchedSitemap = { parsed: ParsedSitemap } | { problem: string };

/** One file fetched and parsed, or why it could not be. */
async function fetchSitemap(file: QueuedFile, deps: SitemapReaderDeps): Promise<FetchedSitemap> {
  const result = await deps.fetch(file.url);
  if (result.kind === 'failed') {
    if (result.failure.kind === 'too_large')
      return { problem: `larger than ${MAX_SITEMAP_BYTES / 1024 / 1024} MB; not read` };
    return { problem: deps.failureReason(result, file.url) };
  }
  // Sitemaps are read whatever their Content-Type: servers label them text/plain or octet-stream.
  if (result.kind === 'excluded') return { problem: `not read: ${result.contentType}` };
  if (result.refusedRedirect !== undefined) return { problem: result.refusedRedirect };
  if (result.status < 200 || result.status >= 300) return { problem: `HTTP ${result.status}` };
  let body = result.body ?? Buffer.alloc(0);
  if (body[0] === 0x1f && body[1] === 0x8b) {
    // A .xml.gz served as a file (application/gzip), not as a Content-Encoding the fetcher removed.
    try {
      body = gunzipSync(body, { maxOutputLength: MAX_SITEMAP_BYTES + 1 });
    } catch (error) {
      if (error instanceof RangeError)
        return { problem: `larger than ${MAX_SITEMAP_BYTES / 1024 / 1024} MB uncompressed; not read` };
      return { problem: `not a readable gzip file (${(error as Error).message})` };
    }
    if (body.length > MAX_SITEMAP_BYTES)
      return { problem: `larger than ${MAX_SITEMAP_BYTES / 1024 / 1024} MB uncompressed; not read` };
  }
  try {
    // The protocol has sitemaps in UTF-8; a stray invalid byte becomes U+FFFD rather than failing the file.
    return { parsed: parseSitemap(new TextDecoder('utf-8').decode(body)) };
  } catch (error) {
    if (error instanceof NotASitemapError) return { problem: `not a sitemap: ${error.message}` };
    throw error;
  }
}

function notesOf(parsed: ParsedSitemap): string[] {
  const notes: string[] = [];
  if (parsed.invalid > 0)
    notes.push(`${parsed.invalid} entr${parsed.invalid === 1 ? 'y' : 'ies'} without a valid http(s) URL`);
  if (parsed.overLimit > 0) {
    notes.push(
      `${parsed.overLimit} entr${parsed.overLimit === 1 ? 'y' : 'ies'} past the ${MAX_SITEMAP_ENTRIES} a sitemap may list; not taken`,
    );
  }
  return notes;
}

function joined(notes: string[]): string | null {
  return notes.length === 0 ? null : notes.join('; ');
}
