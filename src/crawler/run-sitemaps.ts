/**
 * A run's sitemaps (docs/reference/crawl-rules.md, Sitemaps): which files it reads, and how their
 * URLs join its frontier: in scope and patterns, at depth 1, with the sitemap as referrer and the
 * `lastmod` kept. The reading itself is sitemap-reader.ts.
 */
import type { CrawlSettings } from '../domain/index.js';
import type { NewFrontierEntry, RunDataStore } from '../run-data/index.js';
import type { PageFetchResult } from './page-fetch.js';
import type { RobotsPolicy } from './robots-rules.js';
import type { CrawlScope } from './scope.js';
import { type ListedUrl, readSitemaps, type SitemapSource } from './sitemap-reader.js';
import { fingerprintOf, identityOf, parseCrawlUrl, seedUrlOf } from './url-identity.js';

/** Sitemap URLs sit one hop from the seed, as if the seed linked to them. */
const SITEMAP_URL_DEPTH = 1;

export interface RunSitemapsDeps {
  settings: CrawlSettings;
  scope: CrawlScope;
  store: RunDataStore;
  robotsFor(url: URL): Promise<RobotsPolicy>;
  fetch(url: string): Promise<PageFetchResult>;
  failureReason(result: Extract<PageFetchResult, { kind: 'failed' }>, url: string): string;
  /** New URLs are in the frontier: the crawl may take them. */
  added(count: number): void;
  /** The run stopped, drained or reached its documents limit: reading ends. */
  stopped(): boolean;
}

/** Whether the run reads sitemaps at all: it asks for them and may follow links one hop deep. */
export function readsSitemaps(settings: CrawlSettings, scope: CrawlScope): boolean {
  return (settings.readsSitemaps || settings.sitemapUrls.length > 0) && scope.allowsDepth(SITEMAP_URL_DEPTH);
}

/**
 * Reads the run's sitemaps, unless a run resumed on the same store already did. A reading cut
 * short by a drain starts over when the run resumes (its URLs are in the frontier once anyway).
 */
export async function readRunSitemaps(deps: RunSitemapsDeps): Promise<void> {
  const { store } = deps;
  if (store.sitemapOutcomes().finished) return;
  store.restartSitemaps();
  const sources = await sourcesOf(deps);
  if (deps.stopped()) return;
  const finished = await readSitemaps(sources, {
    fetch: deps.fetch,
    failureReason: deps.failureReason,
    stopped: deps.stopped,
    record: (file) => store.recordSitemap(file),
    enqueue: (urls, fileUrl) => {
      const entries = urls.flatMap((listed) => entryOf(listed, fileUrl, deps) ?? []);
      const added = entries.length === 0 ? 0 : store.enqueue(entries);
      deps.added(added);
      return added;
    },
  });
  if (finished) store.finishSitemaps();
}

/**
 * The files to read: those the setting lists, then for each seed's origin the `Sitemap:` lines of
 * its robots.txt, or `/sitemap.xml` when it names none.
 */
async function sourcesOf(deps: RunSitemapsDeps): Promise<SitemapSource[]> {
  const { settings } = deps;
  const sources: SitemapSource[] = settings.sitemapUrls.map((url) => ({ url, guessed: false }));
  if (!settings.readsSitemaps) return sources;
  const origins = new Set<string>();
  for (const raw of settings.seedUrls) {
    const seed = seedUrlOf(raw, false);
    if (seed !== undefined) origins.add(seed.origin);
  }
  for (const origin of origins) {
    const robots = await deps.robotsFor(new URL(origin));
    if (deps.stopped()) return sources;
    if (robots.sitemaps.length > 0) sources.push(...robots.sitemaps.map((url) => ({ url, guessed: false })));
    else sources.push({ url: `${origin}/sitemap.xml`, guessed: true });
  }
  return sources;
}

/** The frontier entry of a listed URL, or undefined when the run does not crawl it. */
function entryOf(listed: ListedUrl, fileUrl: string, deps: RunSitemapsDeps): NewFrontierEntry | undefined {
  const url = parseCrawlUrl(listed.loc);
  if (url === undefined) return undefined;
  // As for links (page-record.ts): credentials in a URL are neither followed nor recorded.
  if (url.username !== '' || url.password !== '') return undefined;
  if (!deps.settings.keepFragment) url.hash = '';
  if (deps.scope.check(url) !== undefined) return undefined;
  return {
    fingerprint: fingerprintOf(identityOf(url, deps.settings)),
    url: url.href,
    depth: SITEMAP_URL_DEPTH,
    referrer: fileUrl,
    lastmod: listed.lastmod,
  };
}
