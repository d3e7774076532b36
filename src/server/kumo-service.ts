import { fileURLToPath } from 'node:url';
import { LiveRunProgress } from '../worker/live-run-progress.js';
import { runFilesOf } from './run-files.js';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../api/build-app.js';
import { isWebAssetsProblem, loadWebAssets } from '../api/routes/widget-assets.js';
import { markShuttingDown } from '../api/hooks/shutting-down.js';
import { DownloadSigner } from '../api/download-signer.js';
import { openFileGroups } from '../blob/open-artifact-store.js';
import { newWorkerName, RunLeasing } from '../worker/run-leasing.js';
import { CheckpointThreadHost } from '../worker/checkpoint-thread-host.js';
import { type BrowserAvailability, probeChromium } from '../browser/chromium-launch.js';
import { configuredBrowser } from '../browser/create-renderer.js';
import type { KumoConfig } from '../config/config.js';
import { fetchLimitsOf } from '../crawler/page-fetch.js';
import { AddressPolicy } from '../net/address-policy.js';
import type { ServiceStore } from '../store/service-store.js';
import { type Clock, systemClock } from '../util/clock.js';
import { defaultUserAgent } from '../util/version.js';
import { BrowserHost } from '../worker/browser-host.js';
import { PaceThreadHost } from '../worker/pace-thread-host.js';
import { RunThreads } from '../worker/run-thread-runner.js';
import { RunWorkerPool } from '../worker/run-worker-pool.js';
import { appSettingsOf, openServingDataDir } from './serving-data-dir.js';
import { bootstrapDemoTenant, issueDemoKey } from '../server/bootstrap.js';
import { Scheduler } from '../scheduler/scheduler.js';
import { ServiceMetrics } from '../observability/service-metrics.js';
import { RunEventPublisher } from '../webhooks/run-event-publisher.js';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import { loadAdminToken, loadSigningSecret, saveAdminToken } from '../server/data-dir.js';
import { InstantCrawlService } from '../service/instant-crawl-service.js';
import { Management } from '../service/management/index.js';
import { ScheduledCrawlService } from '../service/scheduled-crawl-service.js';
import { SearchFeeder } from '../service/search-feeder.js';
import { SearchServices } from '../service/search-services.js';
import { publishedGenerationParts, searchIndexWriterOf } from './search-generation-parts.js';
import { sweepExpiredArtifacts } from '../service/retention-sweeper.js';
import { warnAboutStoredSettings } from '../service/stored-pattern-check.js';
import { listenFailure } from '../server/startup-error.js';

export interface RunningService {
  app: FastifyInstance;
  store: ServiceStore;
  pool: RunWorkerPool;
  /** Base URL the server listens on. */
  url: string;
  scheduler: Scheduler;
  /** The demo key when this start generated it (printed once), else undefined. */
  createdDemoKey: string | undefined;
  /**
   * Whether this start made KUMO_BOOTSTRAP_API_KEY the demo key. That key is the operator's own:
   * it is never printed (docs/operations.md, First start).
   */
  pinnedDemoKeyIssued: boolean;
  /** The management API token when this start generated it (printed once), else undefined. */
  createdAdminToken: string | undefined;
  /** Whether screenshots and wait_type 2 can run (Chromium found and starting). */
  browserStatus(): BrowserAvailability;
  /**
   * Stops the service (SIGTERM): requests answer 503 at once, running crawls drain and stay 2020
   * to resume at the next start, then the listener, store and lock are released. Calls after the
   * first return the same promise.
   */
  close(): Promise<void>;
}

const RETENTION_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

export interface StartServiceOptions {
  /** Where log lines go instead of stdout (one JSON line per write; tests read them). */
  logStream?: { write(line: string): void };
  /**
   * The folder of the browser build (default: dist/web next to this compiled module, where
   * `npm run build` writes it).
   */
  webFolder?: URL;
  /**
   * The environment the object storage client reads (AWS_ENDPOINT_URL_S3, AWS_REGION, credentials;
   * docs/operations.md, Object storage); default the process's.
   */
  env?: NodeJS.ProcessEnv;
}

/** dist/web, seen from dist/src/server (docs/architecture.md, Browser side). */
const WEB_FOLDER = new URL('../../web/', import.meta.url);

/** How long a process's hold on a host lasts unrenewed (at most its run leases). */
const HOST_HOLD_MS = 10_000;

/**
 * Starts `kumo serve`: store, bootstrap, worker pool, HTTP server, retention sweeps. A listen
 * that fails for a setting (port in use, ...) throws a StartupError naming it.
 */
export async function startService(
  config: KumoConfig,
  clock: Clock = systemClock,
  options: StartServiceOptions = {},
): Promise<RunningService> {
  const { paths, artifacts, store, releaseLock } = await openServingDataDir(config, options.env, true);
  // Until the server listens, a store that fails closes (its PostgreSQL connections would keep
  // the process alive) and frees the data directory, so the start ends with its error.
  const storeStep = async <T>(step: () => Promise<T>): Promise<T> => {
    try {
      return await step();
    } catch (error) {
      await store.close().catch(() => undefined);
      releaseLock();
      throw error;
    }
  };
  await storeStep(() => bootstrapDemoTenant(store, clock, config.bootstrapApiKey));
  // The database is this process's alone (soleServer): whatever held a run before is gone, so the
  // runs a crashed process left resume now rather than when their leases end.
  await storeStep(async () => {
    await store.runLeases?.releaseAll();
    await store.searchGenerations?.releaseAllWriters();
  });
  const admin = loadAdminToken(config.adminToken, paths.adminToken);
  const signer = new DownloadSigner(loadSigningSecret(config.signingSecret, paths.signingSecret));
  // The address policy of webhooks; each run thread applies the same policy to its page fetches,
  // redirects, robots.txt and rendered pages.
  const addresses = new AddressPolicy(config.allowPrivateNetworks);
  const logger = { level: config.logLevel, ...(options.logStream && { stream: options.logStream }) };
  let browserStatus: BrowserAvailability = await probeChromium(config.chromiumPath);
  // One Chromium for every run thread, started when a run first renders (docs/architecture.md,
  // Crawl threads).
  const { options: browserOptions, sandbox } = configuredBrowser(config);
  const browser = new BrowserHost(browserOptions, {
    launched: (version) => {
      browserStatus = { available: true, executablePath: config.chromiumPath, version };
    },
    lost: () => app.log.warn('the browser exited; it is started again for the next rendered page'),
  });
  const userAgent = defaultUserAgent(config.botInfoUrl);

  // The pool logs through the app's logger, so the app is built first with a dispatcher that
  // forwards to the pool once it exists.
  const poolRef: { current?: RunWorkerPool } = {};
  const dispatcher = {
    notifyPending: () => poolRef.current?.notifyPending(),
    cancelRun: (runId: number) => poolRef.current?.cancelRun(runId),
    runEnded: (runId: number) => poolRef.current?.runEnded(runId),
  };
  const instantCrawl = new InstantCrawlService(store.runs, dispatcher, clock, {
    maxActiveRunsPerTenant: config.maxActiveRunsPerTenant > 0 ? config.maxActiveRunsPerTenant : undefined,
    runSlots: {
      concurrency: config.workerConcurrency,
      maxRunningPerContract: config.maxRunningPerContract > 0 ? config.maxRunningPerContract : undefined,
    },
  });
  const scheduledCrawl = new ScheduledCrawlService(store, dispatcher, clock, config.timezone);
  const searchLog: { current?: FastifyInstance } = {};
  // Names this process in the run leases, host tenures and search writer leases of a shared database.
  const workerName = newWorkerName();
  const published = publishedGenerationParts(store, config, paths, options.env);
  const searchWriter =
    published &&
    searchIndexWriterOf(published, config, paths, clock, workerName, (serviceId) =>
      searchLog.current?.log.info(
        { search_service_id: serviceId },
        'waiting for another process to finish writing this search service',
      ),
    );
  const searchServices = new SearchServices(store.searchServices, config.dataDir, clock, {
    onFlushError: (error) => searchLog.current?.log.error({ err: error }, 'writing search activity failed'),
    onWarning: (fields, message) => searchLog.current?.log.warn(fields, message),
    analytics: { timezone: config.timezone, retentionDays: config.searchLogRetentionDays },
    sharedActivity: store.searchActivity,
    // The sole server of a database serves the indexes it writes; search nodes follow them.
    generations: published && { store: published.store, cache: published.cache, mode: 'restore' },
  });
  const webhookRef: { current?: WebhookDispatcher } = {};
  // One registry per instance (several services may run in one process); read by GET /metrics.
  const metrics = new ServiceMetrics();
  metrics.setSources({
    runsByState: () => store.runs.countByState(),
    pendingDeliveries: async () => store.deliveries.countPending?.(),
  });
  const schedulerRef: { current?: Scheduler } = {};
  const leasingRef: { current?: RunLeasing } = {};
  const webAssets = loadWebAssets(options.webFolder ?? WEB_FOLDER);
  // Every page's progress of the runs this process crawls, for the console's run page.
  const liveProgress = new LiveRunProgress();
  const management = new Management({
    store,
    scheduledCrawl,
    clock,
    timezone: config.timezone,
    runs: { instantCrawl, live: liveProgress, files: runFilesOf(artifacts) },
    searchIndexes: searchServices,
    onDeliveriesQueued: () => webhookRef.current?.nudge(),
  });
  const app = await buildApp({
    store,
    instantCrawl,
    scheduledCrawl,
    searchServices,
    management,
    adminToken: admin.token,
    artifacts,
    signer,
    clock,
    settings: appSettingsOf(config),
    logger,
    browserStatus: () => browserStatus,
    observability: {
      metrics,
      health: {
        blobStoreProblem: () => artifacts.healthProblem(),
        scheduler: () => schedulerRef.current?.state(),
        ...(store.runLeases && {
          runLeases: () =>
            leasingRef.current?.health() ?? {
              held: 0,
              sinceRenewedMs: undefined,
              leaseMs: config.runLeaseSeconds * 1000,
            },
        }),
      },
    },
    webAssets,
  });
  searchLog.current = app;
  // Settings stored before patterns ran on RE2 (docs/operations.md, Patterns stored before RE2).
  await storeStep(() => warnAboutStoredSettings(store, app.log));
  // Told of every generation published from now on (docs/architecture.md, Search nodes).
  await storeStep(() => searchServices.follow());
  if (browserStatus.available)
    app.log.info({ browser: browserStatus.version }, 'browser rendering available');
  else app.log.warn(`browser rendering unavailable (screenshots, wait_type 2): ${browserStatus.reason}`);
  if (isWebAssetsProblem(webAssets)) {
    app.log.warn(
      { folder: fileURLToPath(options.webFolder ?? WEB_FOLDER) },
      `the search widget and hosted search pages answer 503: ${webAssets.problem}`,
    );
  }
  if (!sandbox.enabled) {
    app.log.warn(`the browser renders pages without its sandbox: ${sandbox.reason} (docs/security.md)`);
  }
  const webhooks = new WebhookDispatcher({
    deliveries: store.deliveries,
    webhooks: store.webhooks,
    clock,
    backoffSeconds: config.webhookBackoffSeconds,
    timeoutMs: config.webhookTimeoutSeconds * 1000,
    userAgent,
    logger: app.log,
    // Webhook URLs are chosen by tenants: they may not aim the service at its own network.
    addresses,
  });
  webhookRef.current = webhooks;
  const events = new RunEventPublisher({
    webhooks: store.webhooks,
    deliveries: store.deliveries,
    clock,
    timezone: config.timezone,
    onQueued: () => webhooks.nudge(),
  });
  const threads = new RunThreads({
    limits: fetchLimitsOf(config),
    defaultUserAgent: userAgent,
    timezone: config.timezone,
    allowPrivateNetworks: config.allowPrivateNetworks,
    heapMb: config.runHeapMb,
    clock,
    // One pace per host over every run (docs/reference/crawl-rules.md, Pacing), kept in a thread
    // of its own so a busy API thread never slows a request start.
    pace: new PaceThreadHost(
      config.hostConcurrency,
      (error) => app.log.error({ err: error }, 'the host pace thread failed; the runs it served fail'),
      config.databaseUrl === undefined
        ? undefined
        : {
            databaseUrl: config.databaseUrl,
            owner: workerName,
            holdMs: Math.min(HOST_HOLD_MS, config.runLeaseSeconds * 1000),
          },
      (message) => app.log.warn(message),
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
  });
  const leasing =
    store.runLeases &&
    new RunLeasing({
      owner: workerName,
      leases: store.runLeases,
      pieces: openFileGroups('pieces', config.blobUrl, paths.pieces, options.env),
      checkpoints: new CheckpointThreadHost(
        { databaseUrl: config.databaseUrl ?? '', blobUrl: config.blobUrl, piecesRoot: paths.pieces },
        options.env,
      ),
      clock,
      logger: app.log,
      leaseMs: config.runLeaseSeconds * 1000,
      observer: metrics,
      checkpointMs: config.checkpointSeconds * 1000,
    });
  leasingRef.current = leasing;
  const pool = new RunWorkerPool({
    runs: store.runs,
    artifacts,
    clock,
    threads,
    workRoot: paths.work,
    concurrency: config.workerConcurrency,
    maxRunningPerContract: config.maxRunningPerContract > 0 ? config.maxRunningPerContract : undefined,
    logger: app.log,
    lifecycle: {
      started: (run) => events.publish('crawl.started', run),
      finished: (run) => events.publish('crawl.finished', run),
    },
    searchFeed: new SearchFeeder(store.serviceSettings, store.runs, searchServices, searchWriter),
    live: liveProgress,
    leasing,
  });
  const scheduler = new Scheduler(scheduledCrawl, config.schedulerIntervalSeconds * 1000, app.log, () =>
    clock.nowMicros(),
  );
  schedulerRef.current = scheduler;

  let address: string;
  try {
    address = await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    // Nothing ran yet: release what was opened, so the process (or a test) can start again.
    try {
      await app.close();
      await threads.close();
    } finally {
      await searchServices.close();
      searchWriter?.close();
      await store.close();
      releaseLock();
    }
    throw listenFailure(error, config.host, config.port) ?? error;
  }
  // Shown once, so made only now that the server listens (docs/operations.md, First start).
  const issuedDemoKey = await issueDemoKey(store, clock, config.bootstrapApiKey);
  const pinnedDemoKeyIssued = issuedDemoKey !== undefined && config.bootstrapApiKey !== undefined;
  const createdDemoKey = pinnedDemoKeyIssued ? undefined : issuedDemoKey;
  if (admin.created) saveAdminToken(paths.adminToken, admin.token);

  let sweepTimer: NodeJS.Timeout | undefined;
  const retentionDays = config.artifactRetentionDays;
  if (retentionDays !== undefined) {
    const sweep = () =>
      void sweepExpiredArtifacts(store.runs, artifacts, clock, retentionDays, app.log).catch(
        (error: unknown) => app.log.error({ err: error }, 'retention sweep failed'),
      );
    sweep();
    sweepTimer = setInterval(sweep, RETENTION_SWEEP_INTERVAL_MS);
    sweepTimer.unref();
  }
  // Known to the routes once it has read the runs to resume, so a run queued meanwhile waits for
  // them (they hold their slots).
  await pool.start();
  poolRef.current = pool;
  webhooks.start();
  scheduler.start();
  let closing: Promise<void> | undefined;
  const shutDown = async (): Promise<void> => {
    // First: from now on requests answer 503 with Retry-After (new connections while the listener
    // is still open, and connections kept alive), so nothing starts new work during the drain.
    markShuttingDown(app);
    clearInterval(sweepTimer);
    scheduler.stop();
    // Running crawls drain while the listener answers those 503s: pages in flight finish and are
    // stored (at most the pool's drain time, then they are aborted); the runs stay 2020 and resume
    // at the next start.
    await pool.stop();
    // app.close() drops only connections idle at that moment; a response finishing during the
    // stop would keep its kept-alive connection (and the stop) open until the client leaves.
    const reaper = setInterval(() => app.server.closeIdleConnections(), 100);
    try {
      await app.close();
    } finally {
      clearInterval(reaper);
    }
    try {
      await Promise.all([threads.close(), webhooks.stop()]);
    } finally {
      // Whatever failed above, the store is closed and the lock released, so a restart can start.
      try {
        await searchServices.close();
        searchWriter?.close();
        await store.close();
      } finally {
        releaseLock();
      }
    }
  };
  return {
    app,
    store,
    pool,
    scheduler,
    url: address,
    createdDemoKey,
    pinnedDemoKeyIssued,
    createdAdminToken: admin.created ? admin.token : undefined,
    browserStatus: () => browserStatus,
    close() {
      closing ??= shutDown();
      return closing;
    },
  };
}
