import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ArtifactFile, isActiveState, bundleFeed, instantRunFeed } from '../domain/index.js';
import { openArtifactStore } from '../blob/index.js';
import { indexingBudgetOf } from '../search/index.js';
import { dataPaths, type KumoConfig } from '../config/index.js';
import { ensureDataDir, openRecordStore } from '../startup/index.js';
import type { SearchServiceRecord } from '../store/index.js';
import { searchServiceOfServe } from './data-dir-check.js';
import type { IndexBundleJob } from './index-bundle.js';
import type { IndexThreadReply } from './index-thread.js';
import { serviceIdOption } from './service-option.js';
import { UsageError } from './usage-error.js';

const INDEX_THREAD_URL = new URL('./index-thread.js', import.meta.url);
/**
 * The writing thread's young generation: nearly all it allocates dies with its batch. It lies
 * outside the budget's writing share, so it is kept as small as the analysis threads': with 16
 * MB, rust-doc peaked at 293–305 MB (docs/design/search-engine.md, Memory of indexing).
 */
const WRITING_YOUNG_MB = 8;

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
  const job = { config, serviceId, service, feed };
  if (typeof source === 'string') return indexInThread({ ...job, bundle: source, named: source });
  // A run's bundle may be in object storage: read from a local copy removed afterwards.
  const artifacts = await openArtifactStore(config.blobUrl, {
    artifacts: paths.artifacts,
    cacheRoot: paths.artifactCache,
  });
  const code = await artifacts.withLocalFile(source.runId, ArtifactFile.objects, (bundle) =>
    indexInThread({ ...job, bundle, named: `run ${values.run}` }),
  );
  if (code === undefined)
    throw new UsageError(
      `--run: the ${ArtifactFile.objects} of crawl request ${values.run} is missing from the artifact store`,
    );
  return code;
}

/**
 * Runs the load in a thread whose heap is the indexing budget's writing share
 * (KUMO_INDEX_MEMORY_MB): V8 then collects as it goes, where on the process's own heap it lets
 * garbage grow to several times what indexing holds. The thread prints the progress and the
 * summary; its exit code is the command's.
 */
function indexInThread(job: IndexBundleJob): Promise<number> {
  const budget = indexingBudgetOf(job.config.indexMemoryMb);
  const worker = new Worker(INDEX_THREAD_URL, {
    workerData: job,
    resourceLimits: {
      maxOldGenerationSizeMb: budget.writingHeapMb,
      maxYoungGenerationSizeMb: WRITING_YOUNG_MB,
    },
  });
  return new Promise((resolve, reject) => {
    let reply: IndexThreadReply | undefined;
    let failure: Error | undefined;
    worker.on('message', (message: IndexThreadReply) => (reply = message));
    worker.on('error', (error: Error & { code?: string }) => {
      failure =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new Error(
              `indexing needed more than the ${budget.writingHeapMb} MB its writing thread may use ` +
                `(half of KUMO_INDEX_MEMORY_MB=${budget.megabytes}); the batches written before stay ` +
                'indexed: run it again with a larger KUMO_INDEX_MEMORY_MB',
            )
          : error;
    });
    worker.on('exit', () => {
      if (failure !== undefined) reject(failure);
      else if (reply === undefined) reject(new Error('the indexing thread ended before it finished'));
      else if ('usageError' in reply) reject(new UsageError(reply.usageError));
      else resolve(reply.exitCode);
    });
  });
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
