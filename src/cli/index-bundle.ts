import { rm } from 'node:fs/promises';
import { dataPaths, type KumoConfig, searchIndexFile } from '../config/index.js';
import {
  BundleReadError,
  bundleDocuments,
  BatchIndexer,
  type IndexingBudget,
  indexingBudgetOf,
} from '../search/indexing.js';
import { contentSelectorsOf, type SearchIndexWriter } from '../search/index.js';
import { keepFacets, reanalysisReporter, SearchIndex } from '../search/local-index.js';
import { openRecordStore, publishedGenerationParts, searchIndexWriterOf } from '../startup/index.js';
import type { SearchServiceRecord } from '../store/index.js';
import { systemClock } from '../util/index.js';
import { newWorkerName } from '../worker/index.js';
import { UsageError } from './usage-error.js';

interface LoadTotals {
  added: number;
  updated: number;
  unchanged: number;
  skipped: number;
}

/** What `kumo index` loads where: the thread that writes the index is given this. */
export interface IndexBundleJob {
  config: KumoConfig;
  serviceId: number;
  service: SearchServiceRecord;
  /** The feed the pages are claimed for (docs/api.md, Search feeding). */
  feed: string;
  bundle: string;
  /** How the summary names the bundle. */
  named: string;
}

/**
 * Loads one bundle file into the service's index, with progress on stderr and the summary on
 * stdout. On a shared database the result is published as a new generation for the search
 * nodes (docs/design/scale-out.md, Search nodes), under the service's writer lease.
 */
export async function indexBundle({
  config,
  serviceId,
  service,
  feed,
  bundle,
  named,
}: IndexBundleJob): Promise<number> {
  const index = new SearchIndex(
    searchIndexFile(config.dataDir, serviceId),
    undefined,
    reanalysisReporter((message) => process.stderr.write(`${message}\n`)),
  );
  let totals: LoadTotals;
  let generation: number | undefined;
  try {
    const budget = indexingBudgetOf(config.indexMemoryMb);
    // This connection only indexes: its page cache is the budget's (docs/design/search-engine.md,
    // Memory of indexing).
    index.store.limitPageCache(budget.pageCacheMb);
    const load = () => loadBundle(index, feed, bundle, service, budget);
    const publishing = await openPublishing(config);
    if (publishing === undefined) totals = await load();
    else {
      try {
        const { result, published } = await publishing.writer.write(serviceId, load, index);
        // kumo serve on this data directory serves the file just written; the copy was for the nodes.
        if (published.file !== undefined) await rm(published.file, { force: true });
        totals = result;
        generation = published.generation;
      } finally {
        await publishing.close();
      }
    }
  } finally {
    index.close();
  }
  const pages = totals.added + totals.updated + totals.unchanged;
  process.stdout.write(
    `search service ${serviceId}: ${pages} pages indexed from ${named} ` +
      `(${totals.added} new, ${totals.updated} changed, ${totals.unchanged} unchanged, ${totals.skipped} skipped)` +
      `${generation === undefined ? '' : `, published as generation ${generation}`}\n`,
  );
  return 0;
}

async function loadBundle(
  index: SearchIndex,
  feed: string,
  bundle: string,
  service: SearchServiceRecord,
  budget: IndexingBudget,
): Promise<LoadTotals> {
  const started = Date.now();
  let skipped = 0;
  const skip = ({ url, reason }: { url: string; reason: string }) => {
    skipped += 1;
    process.stderr.write(`skipped ${url}: ${reason}\n`);
  };
  const indexer = new BatchIndexer(
    index.writer.forFeed(feed),
    (totals) => {
      const pages = totals.added + totals.updated + totals.unchanged;
      process.stderr.write(`indexed ${pages} pages (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
    },
    { budget, onFailed: skip },
  );
  try {
    const selectors = contentSelectorsOf(service.config);
    for await (const document of bundleDocuments(bundle, skip, undefined, selectors))
      await indexer.add(document);
    await indexer.finish();
  } catch (error) {
    if (!(error instanceof BundleReadError)) throw error;
    await indexer.finish();
    const pages = indexer.totals.added + indexer.totals.updated + indexer.totals.unchanged;
    throw new UsageError(`${error.message} (the ${pages} pages read before it are indexed)`);
  }
  // Kept in the file for the service's first search (docs/design/search-engine.md, Facets off the API thread).
  process.stderr.write('computing categories and drill-down\n');
  const problem = await keepFacets(index, service.config, `search service ${service.id}`);
  if (problem !== undefined)
    process.stderr.write(`categories and drill-down are unavailable with the service's rules: ${problem}\n`);
  await giveBackFreePages(index);
  return { ...indexer.totals, skipped };
}

/**
 * The pages the pass's merges freed go back to the file system (docs/design/search-engine.md,
 * Free pages); a file made by an earlier version is rewritten once, which the CLI may take the
 * time for.
 */
async function giveBackFreePages(index: SearchIndex): Promise<void> {
  process.stderr.write('giving free pages of the index file back\n');
  const { bytes, problem } = await index.releaseFreePages(true);
  const megabytes = (bytes / 1024 / 1024).toFixed(1);
  if (problem === undefined) process.stderr.write(`index file ${megabytes} MB smaller\n`);
  else process.stderr.write(`index file ${megabytes} MB smaller; the rest stays free: ${problem}\n`);
}

/** The writer of search generations on a shared database; undefined on SQLite. */
async function openPublishing(
  config: KumoConfig,
): Promise<{ writer: SearchIndexWriter; close(): Promise<void> } | undefined> {
  if (config.databaseUrl === undefined) return undefined;
  const paths = dataPaths(config.dataDir);
  const store = await openRecordStore(config, paths);
  const published = await publishedGenerationParts(store, config, paths, undefined);
  if (published === undefined) {
    await store.close();
    return undefined;
  }
  const writer = searchIndexWriterOf(published, config, paths, systemClock, newWorkerName(), (serviceId) =>
    process.stderr.write(`waiting for another process to finish writing search service ${serviceId}\n`),
  );
  return {
    writer,
    close: async () => {
      writer.close();
      await store.close();
    },
  };
}
