import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../api/build-app.js';
import { DownloadSigner } from '../api/download-signer.js';
import { markShuttingDown } from '../api/hooks/shutting-down.js';
import { isWebAssetsProblem, loadWebAssets } from '../api/routes/widget-assets.js';
import type { BrowserAvailability } from '../browser/chromium-launch.js';
import type { KumoConfig } from '../config/config.js';
import { takesEveryRole } from '../config/roles.js';
import { AddressPolicy } from '../net/address-policy.js';
import { ServiceMetrics } from '../observability/service-metrics.js';
import { Scheduler } from '../scheduler/scheduler.js';
import { bootstrapDemoTenant, issueDemoKey } from './bootstrap.js';
import { type CrawlWorker, buildCrawlWorker } from './crawl-worker.js';
import { loadAdminToken, loadSigningSecret, saveAdminToken } from './data-dir.js';
import { runFilesOf } from './run-files.js';
import { publishedGenerationParts, searchIndexWriterOf } from './search-generation-parts.js';
import { appSettingsOf, openServingDataDir } from './serving-data-dir.js';
import { listenFailure } from './startup-error.js';
import { InstantCrawlService } from '../service/instant-crawl-service.js';
import { Management } from '../service/management/index.js';
import { sweepExpiredArtifacts } from '../service/retention-sweeper.js';
import { ScheduledCrawlService } from '../service/scheduled-crawl-service.js';
import { SearchFeeder } from '../search/serving/search-feeder.js';
import { SearchServices } from '../search/serving/search-services.js';
import { warnAboutStoredSettings } from '../service/stored-pattern-check.js';
import type { ServiceStore } from '../store/service-store.js';
import { type Clock, systemClock } from '../util/clock.js';
import { defaultUserAgent } from '../util/version.js';
import { RunEventPublisher } from '../webhooks/run-event-publisher.js';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import { LiveRunProgress } from '../worker/live-run-progress.js';
import { newWorkerName } from '../worker/run-leasing.js';
import type { RunWorkerPool } from '../worker/run-worker-pool.js';
import { TenantWork } from '../service/tenant-work/tenant-work.js';

export interface RunningService {
  app: FastifyInstance;
  store: ServiceStore;
  /** The runs this process crawls (the worker role). */
  pool: RunWorkerPool | undefined;
  /** Base URL the server listens on. */
  url: string;
  /** The scheduler (the scheduler role). */
  scheduler: Scheduler | undefined;
  /** The search services this process has open (searched, fed or managed). */
  searchServices: SearchServices;
  /** The demo key when this start generated it (printed once), else undefined. */
  createdDemoKey: string | undefined;
  /**
   * Whether this start made KUMO_BOOTSTRAP_API_KEY the demo key. That key is the operator's own:
   * it is never printed (docs/operations.md, First start).
   */
  pinnedDemoKeyIssued: boolean;
  /** The management API token when this start generated it (printed once), else undefined. */
  createdAdminToken: string | undefined;
  /** Whether screenshots and wait_type 2 can run (Chromium found and starting); undefined without the worker role. */
  browserStatus(): BrowserAvailability | undefined;
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

/** dist/web, seen from dist/src/server (docs/design/browser-side.md, Browser side). */
const WEB_FOLDER = new URL('../../web/', import.meta.url);

/**
 * Starts `kumo serve` with the roles of the configuration (docs/operations.md, Roles): store,
 * bootstrap, worker pool, scheduler, HTTP server, retention sweeps, each where its role runs. A
 * listen that fails for a setting (port in use, ...) throws a StartupError naming it.
 */
export async function startService(
  config: KumoConfig,
  clock: Clock = systemClock,
  options: StartServiceOptions = {},
): Promise<RunningService> {
  const { roles } = config;
  const everyRole = takesEveryRole(roles);
  const takes = {
    api: roles.includes('api'),
    worker: roles.includes('worker'),
    scheduler: roles.includes('scheduler'),
    search: roles.includes('search'),
  };
  // A process with every role crawls with a shared database alone; the workers of a split cluster
  // crawl with it together (docs/operations.md, Roles).
  const crawlingLock = takes.worker ? (everyRole ? 'exclusive' : 'shared') : undefined;
  const { paths, artifacts, store, releaseLock } = await openServingDataDir(
    config,
    options.env,
    crawlingLock,
  );
  // Until the server listens, a step that fails closes what was opened (PostgreSQL connections, a
  // listening client, threads would keep the process alive) and frees the data directory, so the
  // start ends with its error. Each part adds its close as it is built.
  const opened: (() => unknown)[] = [];
  const abandonStart = async () => {
    for (const close of opened.reverse()) await (async () => close())().catch(() => undefined);
    await store.close().catch(() => undefined);
    releaseLock();
  };
  const storeStep = async <T>(step: () => Promise<T>): Promise<T> => {
    try {
      return await step();
    } catch (error) {
      await abandonStart();
      throw error;
    }
  };
  if (crawlingLock === 'exclusive') {
    // The database is this process's alone: whatever held a run before is gone, so the runs a
    // crashed process left resume now rather than when their leases end.
    await storeStep(async () => {
      await store.runLeases?.releaseAll();
      await store.searchGenerations?.releaseAllWriters();
    });
  }
  const admin = loadAdminToken(config.adminToken, paths.adminToken);
  const signer = new DownloadSigner(loadSigningSecret(config.signingSecret, paths.signingSecret));
  const logger = { level: config.logLevel, ...(options.logStream && { stream: options.logStream }) };
  const userAgent = defaultUserAgent(config.botInfoUrl);

  // The pool logs through the app's logger, so the app is built first with a dispatcher that
  // forwards to the pool once it exists (a process without the worker role has none: the workers
  // of the cluster claim its runs from the store).
  const workerRef: { current?: CrawlWorker } = {};
  const builtWorker: { current?: CrawlWorker } = {};
  const dispatcher = {
    notifyPending: () => workerRef.current?.pool.notifyPending(),
    cancelRun: (runId: number) => workerRef.current?.pool.cancelRun(runId),
    runEnded: (runId: number) => workerRef.current?.pool.runEnded(runId),
  };
  // Tenants' patterns are checked and matched in these threads, never on the API thread.
  const tenantWork = new TenantWork();
  opened.push(() => tenantWork.close());
  const instantCrawl = new InstantCrawlService(store.runs, dispatcher, clock, tenantWork, {
    maxActiveRunsPerTenant: config.maxActiveRunsPerTenant > 0 ? config.maxActiveRunsPerTenant : undefined,
    runSlots: {
      // A process with every role knows the slots; an API process of a split cluster does not.
      concurrency: everyRole ? config.workerConcurrency : undefined,
      maxRunningPerContract: config.maxRunningPerContract > 0 ? config.maxRunningPerContract : undefined,
    },
  });
  const scheduledCrawl = new ScheduledCrawlService(store, dispatcher, clock, config.timezone);
  const searchLog: { current?: FastifyInstance } = {};
  // Names this process in the run leases, host tenures and search writer leases of a shared database.
  const workerName = newWorkerName();
  const published = await storeStep(() => publishedGenerationParts(store, config, paths, options.env));
  const searchWriter =
    takes.worker && published
      ? searchIndexWriterOf(published, config, paths, clock, workerName, (serviceId) =>
          searchLog.current?.log.info(
            { search_service_id: serviceId },
            'waiting for another process to finish writing this search service',
          ),
        )
      : undefined;
  const searchServices = new SearchServices(store.searchServices, config.dataDir, clock, {
    onFlushError: (error) => searchLog.current?.log.error({ err: error }, 'writing search activity failed'),
    onWarning: (fields, message) => searchLog.current?.log.warn(fields, message),
    analytics: { timezone: config.timezone, retentionDays: config.searchLogRetentionDays },
    sharedActivity: store.searchActivity,
    // The process with every role serves the indexes it writes; every other one follows the
    // published generations (docs/design/scale-out.md, Search nodes).
    generations: published && {
      store: published.store,
      cache: published.cache,
      mode: everyRole ? 'restore' : 'follow',
    },
  });
  opened.push(
    () => searchServices.close(),
    () => searchWriter?.close(),
  );
  const webhookRef: { current?: WebhookDispatcher } = {};
  // One registry per instance (several services may run in one process); read by GET /metrics.
  const metrics = new ServiceMetrics();
  metrics.setSources({
    runsByState: () => store.runs.countByState(),
    pendingDeliveries: async () => store.deliveries.countPending?.(),
  });
  const schedulerRef: { current?: Scheduler } = {};
  const webAssets = loadWebAssets(options.webFolder ?? WEB_FOLDER);
  // Every page's progress of the runs this process crawls, for the console's run page.
  const liveProgress = new LiveRunProgress();
  const management = new Management({
    store,
    scheduledCrawl,
    tenantWork,
    clock,
    timezone: config.timezone,
    runs: { instantCrawl, live: liveProgress, files: runFilesOf(artifacts) },
    searchIndexes: searchServices,
    onDeliveriesQueued: () => webhookRef.current?.nudge(),
  });
  // API processes starting at once create the demo tenant once.
  const serialized = <T>(work: () => Promise<T>): Promise<T> => store.serialized?.(work) ?? work();
  if (takes.api)
    await storeStep(() =>
      serialized(() => bootstrapDemoTenant(store, management, clock, config.bootstrapApiKey)),
    );
  const app = await storeStep(() =>
    buildApp({
      store,
      instantCrawl,
      tenantWork,
      scheduledCrawl,
      searchServices,
      management,
      adminToken: admin.token,
      artifacts,
      signer,
      clock,
      settings: appSettingsOf(config),
      logger,
      browserStatus: () => builtWorker.current?.browserStatus(),
      observability: {
        metrics,
        // What this process depends on: the store and the artifact storage always, the scheduler and
        // the run leases where their roles run.
        health: {
          blobStoreProblem: () => artifacts.healthProblem(),
          ...(takes.scheduler && { scheduler: () => schedulerRef.current?.state() }),
          ...(takes.worker &&
            store.runLeases && {
              runLeases: () =>
                builtWorker.current?.leasing?.health() ?? {
                  held: 0,
                  sinceRenewedMs: undefined,
                  leaseMs: config.runLeaseSeconds * 1000,
                },
            }),
        },
      },
      webAssets,
      answers: { api: takes.api, search: takes.search },
    }),
  );
  opened.push(() => app.close());
  searchLog.current = app;
  // Settings stored before patterns ran on RE2 (docs/operations.md, Patterns stored before RE2).
  if (takes.api || takes.worker) await storeStep(() => warnAboutStoredSettings(store, app.log));
  // Told of every generation published from now on (docs/design/scale-out.md, Search nodes).
  await storeStep(() => searchServices.follow());
  if (isWebAssetsProblem(webAssets) && (takes.api || takes.search)) {
    app.log.warn(
      { folder: fileURLToPath(options.webFolder ?? WEB_FOLDER) },
      `the search widget and hosted search pages answer 503: ${webAssets.problem}`,
    );
  }
  // Sent by the scheduler role; elsewhere deliveries are queued in the store for it.
  const webhooks = takes.scheduler
    ? new WebhookDispatcher({
        deliveries: store.deliveries,
        webhooks: store.webhooks,
        clock,
        backoffSeconds: config.webhookBackoffSeconds,
        timeoutMs: config.webhookTimeoutSeconds * 1000,
        connectTimeoutMs: config.webhookConnectTimeoutSeconds * 1000,
        userAgent,
        logger: app.log,
        // Webhook URLs are chosen by tenants: they may not aim the service at its own network.
        addresses: new AddressPolicy(config.allowPrivateNetworks),
      })
    : undefined;
  webhookRef.current = webhooks;
  const events = new RunEventPublisher({
    webhooks: store.webhooks,
    deliveries: store.deliveries,
    clock,
    timezone: config.timezone,
    onQueued: () => webhookRef.current?.nudge(),
  });
  const worker = takes.worker
    ? await storeStep(() =>
        buildCrawlWorker({
          config,
          clock,
          store,
          artifacts,
          paths,
          env: options.env,
          logger: app.log,
          metrics,
          workerName,
          userAgent,
          events,
          searchFeed: new SearchFeeder(store.serviceSettings, store.runs, searchServices, searchWriter),
          live: liveProgress,
        }),
      )
    : undefined;
  if (worker !== undefined) opened.push(() => worker.threads.close());
  // Reported by the health check from the start; told of runs once its pool has started (below).
  builtWorker.current = worker;
  const scheduler = takes.scheduler
    ? new Scheduler(scheduledCrawl, config.schedulerIntervalSeconds * 1000, app.log, () => clock.nowMicros())
    : undefined;
  schedulerRef.current = scheduler;

  let address: string;
  try {
    address = await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    // Nothing ran yet: release what was opened, so the process (or a test) can start again.
    await abandonStart();
    throw listenFailure(error, config.host, config.port) ?? error;
  }
  // Shown once, so made only now that the server listens (docs/operations.md, First start).
  const issuedDemoKey = takes.api
    ? await serialized(() => issueDemoKey(store, clock, config.bootstrapApiKey))
    : undefined;
  const pinnedDemoKeyIssued = issuedDemoKey !== undefined && config.bootstrapApiKey !== undefined;
  const createdDemoKey = pinnedDemoKeyIssued ? undefined : issuedDemoKey;
  if (admin.created) saveAdminToken(paths.adminToken, admin.token);

  let sweepTimer: NodeJS.Timeout | undefined;
  const retentionDays = config.artifactRetentionDays;
  if (retentionDays !== undefined && takes.scheduler) {
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
  if (worker !== undefined) {
    await worker.pool.start();
    workerRef.current = worker;
  }
  webhooks?.start();
  scheduler?.start();
  let closing: Promise<void> | undefined;
  const shutDown = async (): Promise<void> => {
    // First: from now on requests answer 503 with Retry-After (new connections while the listener
    // is still open, and connections kept alive), so nothing starts new work during the drain.
    markShuttingDown(app);
    clearInterval(sweepTimer);
    scheduler?.stop();
    // Running crawls drain while the listener answers those 503s: pages in flight finish and are
    // stored (at most the pool's drain time, then they are aborted); the runs stay 2020 and resume
    // at the next start (on a shared store: another worker resumes them at once).
    await worker?.pool.stop();
    // app.close() drops only connections idle at that moment; a response finishing during the
    // stop would keep its kept-alive connection (and the stop) open until the client leaves.
    const reaper = setInterval(() => app.server.closeIdleConnections(), 100);
    try {
      await app.close();
    } finally {
      clearInterval(reaper);
    }
    try {
      await Promise.all([worker?.threads.close(), webhooks?.stop()]);
    } finally {
      // Whatever failed above, the store is closed and the lock released, so a restart can start.
      try {
        await Promise.all([searchServices.close(), tenantWork.close()]);
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
    pool: worker?.pool,
    scheduler,
    searchServices,
    url: address,
    createdDemoKey,
    pinnedDemoKeyIssued,
    createdAdminToken: admin.created ? admin.token : undefined,
    browserStatus: () => worker?.browserStatus(),
    close() {
      closing ??= shutDown();
      return closing;
    },
  };
}
