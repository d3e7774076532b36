import { openFileGroups } from '../blob/index.js';
import { type BrowserAvailability, probeChromium } from '../browser/index.js';
import { fetchLimitsOf } from '../crawler/index.js';
import type { SearchFeeder } from '../search/index.js';
import {
  CheckpointThreadHost,
  configuredRunBrowser,
  type LiveRunProgress,
  PaceThreadHost,
  RunLeasing,
  RunThreads,
  RunWorkerPool,
} from '../worker/index.js';
import type { RunEventPublisher } from '../webhooks/index.js';
import { defaultUserAgent } from '../util/index.js';
import type { ServiceParts } from './service-parts.js';

/** How long a process's hold on a host lasts unrenewed (at most its run leases). */
const HOST_HOLD_MS = 10_000;

/** What the worker role runs: the pool of runs, their threads and, on a shared store, the leases. */
export interface CrawlWorker {
  pool: RunWorkerPool;
  threads: RunThreads;
  leasing: RunLeasing | undefined;
  /** Whether screenshots and wait_type 2 can run (Chromium found and starting). */
  browserStatus(): BrowserAvailability;
}

/** What the worker's runs report to: webhooks, the search services they feed, the console's live page. */
export interface WorkerOutlets {
  events: RunEventPublisher;
  searchFeed: SearchFeeder;
  live: LiveRunProgress;
}

/**
 * The worker role (docs/design/crawl.md, Crawl threads; Run leases): Chromium found at start and
 * launched with the first rendered page, one thread per run with one host pace over them all
 * (across processes on a shared store), and the pool claiming runs. Nothing runs until
 * `pool.start()`.
 */
export async function assembleWorker(parts: ServiceParts, outlets: WorkerOutlets): Promise<CrawlWorker> {
  const { config, clock, store, logger, metrics, workerName } = parts;
  let browserStatus: BrowserAvailability = await probeChromium(config.chromiumPath);
  if (browserStatus.available) logger.info({ browser: browserStatus.version }, 'browser rendering available');
  else logger.warn(`browser rendering unavailable (screenshots, wait_type 2): ${browserStatus.reason}`);
  // One Chromium for every run thread, started when a run first renders.
  const browser = configuredRunBrowser(config, {
    launched: (version) => {
      browserStatus = { available: true, executablePath: config.chromiumPath, version };
    },
    lost: () => logger.warn('the browser exited; it is started again for the next rendered page'),
  });
  if (!browser.sandbox.enabled)
    logger.warn(
      `the browser renders pages without its sandbox: ${browser.sandbox.reason} (docs/security.md)`,
    );
  const threads = new RunThreads({
    limits: fetchLimitsOf(config),
    defaultUserAgent: defaultUserAgent(config.botInfoUrl),
    timezone: config.timezone,
    allowPrivateNetworks: config.allowPrivateNetworks,
    heapMb: config.runHeapMb,
    clock,
    // One pace per host over every run (docs/reference/crawl-rules.md, Pacing), kept in a thread
    // of its own so a busy API thread never slows a request start.
    pace: new PaceThreadHost(
      config.hostConcurrency,
      (error) => logger.error({ err: error }, 'the host pace thread failed; the runs it served fail'),
      config.databaseUrl === undefined
        ? undefined
        : {
            databaseUrl: config.databaseUrl,
            owner: workerName,
            holdMs: Math.min(HOST_HOLD_MS, config.runLeaseSeconds * 1000),
          },
      (message) => logger.warn(message),
    ),
    browser,
    observer: metrics,
    keepWarm: config.workerConcurrency,
  });
  const leasing =
    store.runLeases &&
    new RunLeasing({
      owner: workerName,
      leases: store.runLeases,
      pieces: await openFileGroups('pieces', config.blobUrl, parts.paths.pieces, parts.env),
      checkpoints: new CheckpointThreadHost(
        { databaseUrl: config.databaseUrl ?? '', blobUrl: config.blobUrl, piecesRoot: parts.paths.pieces },
        parts.env,
      ),
      clock,
      logger,
      leaseMs: config.runLeaseSeconds * 1000,
      observer: metrics,
      checkpointMs: config.checkpointSeconds * 1000,
    });
  const pool = new RunWorkerPool({
    runs: store.runs,
    artifacts: parts.artifacts,
    clock,
    threads,
    workRoot: parts.paths.work,
    concurrency: config.workerConcurrency,
    maxRunningPerContract: config.maxRunningPerContract > 0 ? config.maxRunningPerContract : undefined,
    logger,
    lifecycle: {
      started: (run) => outlets.events.publish('crawl.started', run),
      finished: (run) => outlets.events.publish('crawl.finished', run),
    },
    searchFeed: outlets.searchFeed,
    live: outlets.live,
    leasing,
  });
  return { pool, threads, leasing, browserStatus: () => browserStatus };
}
