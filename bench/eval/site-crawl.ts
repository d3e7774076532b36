import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createUndiciFetcher } from '../../src/crawler/engine.js';
import { ArtifactFile, resolveCrawlSettings } from '../../src/domain/index.js';
import type { InstantCrawlerSetting } from '../../src/domain/schemas.js';
import type { RunPageOutcomes } from '../../src/search/indexing.js';
import { startFolderSite } from '../bench-site.js';
import { runKumoCrawl } from '../kumo-crawl.js';
import type { SiteLayout } from './corpus-spec.js';

/** A finished crawl of a set's site: its bundle, as a scheduled run hands it to its search service. */
export interface SiteCrawl {
  /** The run's crawl_objects.tar.gz. */
  bundleFile: string;
  outcomes: RunPageOutcomes;
  /** Where the set's folder is on the crawled site: the seed (`http://127.0.0.1:PORT/ja/`). */
  crawlRoot: string;
  /** URLs fetched (every row of the run), and those without a usable answer. */
  fetched: number;
  errors: number;
  seconds: number;
  /** Removes the run's files. */
  dispose(): Promise<void>;
}

/**
 * The setting a site owner writes for a scheduled crawl of the site: its start page as the seed,
 * and no limit. A set in a folder of the site (a translation) is kept to that folder by an allow
 * pattern; a whole site needs none, the seed's site being the default scope
 * (docs/reference/crawl-rules.md, Scope).
 */
export function ownerSetting(crawlRoot: string, layout: SiteLayout): InstantCrawlerSetting {
  return {
    seed_urls: [crawlRoot],
    ...(layout.path !== '/' && {
      allow_urls_patterns: [`^${crawlRoot.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`],
    }),
  };
}

/**
 * Serves the set's folder (`root`, or the part of the site holding it) on loopback and crawls it
 * with the crawler as a run feeding a search service runs (docs/search-evaluation.md, Relevance
 * evaluation).
 */
export async function crawlSite(root: string, layout: SiteLayout): Promise<SiteCrawl> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'kumo-eval-crawl-'));
  try {
    const site = await startFolderSite(path.resolve(root, layout.servedFolder));
    const fetcher = createUndiciFetcher();
    try {
      const crawlRoot = `${site.baseUrl}${layout.path}`;
      const settings = resolveCrawlSettings(ownerSetting(crawlRoot, layout), { feedsSearch: true });
      // A run feeding search collects the page files whatever its setting says (src/worker/run-thread.ts).
      const run = await runKumoCrawl({ ...settings, collectObjects: true }, folder, fetcher, undefined, {
        pageOutcomes: true,
      });
      const { execution } = run;
      const outcomes = execution.pageOutcomes;
      if (outcomes === undefined || !execution.artifacts.some(({ name }) => name === ArtifactFile.objects)) {
        throw new Error(`the crawl of ${crawlRoot} ended ${execution.outcome} without a bundle`);
      }
      return {
        bundleFile: path.join(folder, 'out', ArtifactFile.objects),
        outcomes: {
          gone: outcomes.gone,
          failed: outcomes.failed,
          complete: execution.outcome === 'completed' && outcomes.seedsFetched,
        },
        crawlRoot,
        fetched: execution.progress.crawled,
        errors: run.errors,
        seconds: run.crawlSeconds,
        dispose: () => rm(folder, { recursive: true, force: true }),
      };
    } finally {
      await fetcher.close();
      await site.close();
    }
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}
