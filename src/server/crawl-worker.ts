import type { FastifyBaseLogger } from 'fastify';
import type { ArtifactStore } from '../blob/artifact-store.js';
import { openFileGroups } from '../blob/open-artifact-store.js';
import { type BrowserAvailability, probeChromium } from '../browser/chromium-launch.js';
import { configuredBrowser } from '../browser/configured-browser.js';
import type { KumoConfig } from '../config/config.js';
import type { dataPaths } from '../config/data-paths.js';
import { fetchLimitsOf } from '../crawler/page-fetch.js';
import type { ServiceMetrics } from '../observability/service-metrics.js';
import type { SearchFeeder } from '../search/serving/search-feeder.js';
import type { ServiceStore } from '../store/service-store.js';
import type { Clock } from '../util/clock.js';
import { BrowserHost } from '../worker/browser-host.js';
import { CheckpointThreadHost } from '../worker/checkpoint-thread-host.js';
import type { LiveRunProgress } from '../worker/live-run-progress.js';
import { PaceThreadHost } from '../worker/pace-thread-host.js';
import { RunLeasing } from '../worker/run-leasing.js';
import { RunThreads } from '../worker/run-thread-runner.js';
import { RunWorkerPool } from '../worker/run-worker-pool.js';
import type { RunEventPublisher } from '../webhooks/run-event-publisher.js';

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

export interface CrawlWorkerDeps {
  config: KumoConfig;
  clock: Clock;
  store: ServiceStore;
  artifacts: ArtifactStore;
  paths: ReturnType<typeof dataPaths>;
  env: NodeJS.ProcessEnv | undefined;
  logger: FastifyBaseLogger;
  metrics: ServiceMetrics;
  /** This process's name in run leases and host tenures (newWorkerName). */
  workerName: string;
  userAgent: string;
  events: RunEventPublisher;
  searchFeed: SearchFeeder;
  live: LiveRunProgress;
}

/**
 * Builds the worker role (docs/design/crawl.md, Crawl threads; Run leases): Chromium found at
 * start and launched with the first rendered page, one thread per run with one host pace over
 * them all (across processes on a shared store), and the pool claiming runs. Nothing runs until
 * `pool.start()`.
 */
export async function buildCrawlWorker(deps: CrawlWorkerDeps): Promise<CrawlWorker> {
  const { config, clock, store, logger, metrics, workerName } = deps;
  let browserStatus: BrowserAvailability = await probeChromium(config.chromiumPath);
  if (browserStatus.available) logger.info({ browser: browserStatus.version }, 'browser rendering available');
  else logger.warn(`browser rendering unavailable (screenshots, wait_type 2): ${browserStatus.reason}`);
  // One Chromium for every run thread, started when a run first renders.
  const { options: browserOptions, sandbox } = configuredBrowser(config);
  if (!sandbox.enabled)
    logger.warn(`the browser renders pages without its sandbox: ${sandbox.reason} (docs/security.md)`);
  const browser = new BrowserHost(browserOptions, {
    launched: (version) => {
      browserStatus = { available: true, executablePath: config.chromiumPath, version };
    },
    lost: () => logger.warn('the browser exited; it is started again for the next rendered page'),
  });
  const threads = new RunThreads({
    limits: fetchLimitsOf(config),
    defaultUserAgent: deps.userAgent,
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
    browser: {
      host: browser,
      settings: {
        executablePath: config.chromiumPath,
        idleWaitMs: config.browserIdleWaitSeconds * 1000,
        pageTimeoutMs: config.browserPageTimeoutSeconds * 1000,
      },
    },
    observer: metrics,
    keepWarm: config.workerConcurrency,
  });
  const leasing =
    store.runLeases &&
    new RunLeasing({
      owner: workerName,
      leases: store.runLeases,
      pieces: await openFileGroups('pieces', config.blobUrl, deps.paths.pieces, deps.env),
      checkpoints: new CheckpointThreadHost(
        { databaseUrl: config.databaseUrl ?? '', blobUrl: config.blobUrl, piecesRoot: deps.paths.pieces },
        deps.env,
      ),
      clock,
      logger,
      leaseMs: config.runLeaseSeconds * 1000,
      observer: metrics,
      checkpointMs: config.checkpointSeconds * 1000,
    });
  const pool = new RunWorkerPool({
    runs: store.runs,
    artifacts: deps.artifacts,
    clock,
    threads,
    workRoot: deps.paths.work,
    concurrency: config.workerConcurrency,
    maxRunningPerContract: config.maxRunningPerContract > 0 ? config.maxRunningPerContract : undefined,
    logger,
    lifecycle: {
      started: (run) => deps.events.publish('crawl.started', run),
      finished: (run) => deps.events.publish('crawl.finished', run),
    },
    searchFeed: deps.searchFeed,
    live: deps.live,
    leasing,
  });
  return { pool, threads, leasing, browserStatus: () => browserStatus };
}
