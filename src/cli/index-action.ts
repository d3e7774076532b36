import { existsSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { ArtifactFile, isActiveState, bundleFeed, instantRunFeed } from '../domain/index.js';
import { openArtifactStore } from '../blob/index.js';
import { BundleReadError, bundleDocuments, BatchIndexer } from '../search/indexing.js';
import { contentSelectorsOf, type SearchIndexWriter } from '../search/index.js';
import { reanalysisReporter, SearchIndex } from '../search/local-index.js';
import { dataPaths, type KumoConfig, searchIndexFile } from '../config/index.js';
import {
  ensureDataDir,
  openRecordStore,
  publishedGenerationParts,
  searchIndexWriterOf,
} from '../startup/index.js';
import { systemClock } from '../util/index.js';
import { newWorkerName } from '../worker/index.js';
import type { SearchServiceRecord } from '../store/index.js';
import { searchServiceOfServe } from './data-dir-check.js';
import { serviceIdOption } from './service-option.js';
import { UsageError } from './usage-error.js';

export interface IndexOptionValues {
  service?: string;
  run?: string;
}

/** `kumo index`: a crawl bundle into a search service's index, with progress on stderr. */
export async function indexCommand(
  positionals: string[],
  values: IndexOptionValues,
  config: KumoConfig,
): Promise<number> {
  const serviceId = serviceIdOption(values.service);
  const { service } = await searchServiceOfServe(config, serviceId);
  const source = await bundleToIndex(config, service, values.run, positionals);
  // The pages are claimed for this bundle or run: no scheduled run removes them (docs/api.md,
  // Search feeding).
  const feed = values.run !== undefined ? instantRunFeed(Number(values.run)) : bundleFeed(positionals[0]!);
  const paths = ensureDataDir(config.dataDir);
  if (typeof source === 'string') return indexBundle(config, serviceId, service, feed, source, source);
  // A run's bundle may be in object storage: read from a local copy removed afterwards.
  const artifacts = await openArtifactStore(config.blobUrl, {
    artifacts: paths.artifacts,
    cacheRoot: paths.artifactCache,
  });
  const code = await artifacts.withLocalFile(source.runId, ArtifactFile.objects, (bundle) =>
    indexBundle(config, serviceId, service, feed, bundle, `run ${values.run}`),
  );
  if (code === undefined)
    throw new UsageError(
      `--run: the ${ArtifactFile.objects} of crawl request ${values.run} is missing from the artifact store`,
    );
  return code;
}

interface LoadTotals {
  added: number;
  updated: number;
  unchanged: number;
  skipped: number;
}

/**
 * Loads one bundle file into the service's index; `named` is how the summary names it. On a
 * shared database the result is published as a new generation for the search nodes
 * (docs/design/scale-out.md, Search nodes), under the service's writer lease.
 */
async function indexBundle(
  config: KumoConfig,
  serviceId: number,
  service: SearchServiceRecord,
  feed: string,
  bundle: string,
  named: string,
): Promise<number> {
  const index = new SearchIndex(
    searchIndexFile(config.dataDir, serviceId),
    undefined,
    reanalysisReporter((message) => process.stderr.write(`${message}\n`)),
  );
  let totals: LoadTotals;
  let generation: number | undefined;
  try {
    const load = () => loadBundle(index, feed, bundle, service);
    const publishing = await openPublishing(config);
    if (publishing === undefined) totals = await load();
    else {
      try {
        const { result, published } = await publishing.writer.write(serviceId, load, index);
        // kumo serve on this data directory serves the file just written; the copy was for the nodes.
        await rm(published.file, { force: true });
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
): Promise<LoadTotals> {
  const started = Date.now();
  const indexer = new BatchIndexer(index.writer.forFeed(feed), (totals) => {
    const pages = totals.added + totals.updated + totals.unchanged;
    process.stderr.write(`indexed ${pages} pages (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  });
  let skipped = 0;
  try {
    const skip = ({ url, reason }: { url: string; reason: string }) => {
      skipped += 1;
      process.stderr.write(`skipped ${url}: ${reason}\n`);
    };
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
  return { ...indexer.totals, skipped };
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

/** The bundle file named by the arguments (a file, a folder holding one), or the run whose artifact it is. */
async function bundleToIndex(
  config: KumoConfig,
  service: SearchServiceRecord,
  run: string | undefined,
  positionals: string[],
): Promise<string | { runId: number }> {
  if (run !== undefined) {
    if (positionals.length > 0) throw new UsageError('give either --run ID or a bundle, not both');
    return runBundle(config, service, run);
  }
  if (positionals.length !== 1)
    throw new UsageError('give one crawl_objects.tar.gz, a folder, or --run ID', true);
  const given = positionals[0]!;
  if (!existsSync(given)) throw new UsageError(`no such file: ${given}`);
  if (!statSync(given).isDirectory()) return given;
  const inside = path.join(given, ArtifactFile.objects);
  if (!existsSync(inside)) throw new UsageError(`${given} holds no ${ArtifactFile.objects}`);
  return inside;
}

/**
 * The bundle of a finished instant run (by its instant_crawl_request_id) of the search service's
 * own tenant: another tenant's crawl never reaches this tenant's search.
 */
async function runBundle(
  config: KumoConfig,
  service: SearchServiceRecord,
  raw: string,
): Promise<{ runId: number }> {
  if (!/^[1-9]\d{0,15}$/.test(raw))
    throw new UsageError(`--run: expected a positive whole number, got "${raw}"`);
  const store = await openRecordStore(config, dataPaths(config.dataDir));
  try {
    const record = await store.runs.getByRequest(service, Number(raw));
    if (record === undefined) {
      throw new UsageError(
        `--run: no crawl request ${raw} in contract ${service.contractId}, service group ${service.servicegroupId}`,
      );
    }
    if (isActiveState(record.state)) throw new UsageError(`--run: crawl request ${raw} has not finished yet`);
    if (!record.artifacts.includes(ArtifactFile.objects) || record.artifactsDeletedMicros !== null) {
      throw new UsageError(
        `--run: crawl request ${raw} has no ${ArtifactFile.objects} (nothing collected, or removed)`,
      );
    }
    return { runId: record.id };
  } finally {
    await store.close();
  }
}
