import type { FastifyInstance } from 'fastify';
import { markShuttingDown } from '../api/index.js';
import type { BrowserAvailability } from '../browser/index.js';
import type { KumoConfig } from '../config/index.js';
import { createServiceLogger } from '../observability/service-logger.js';
import { ServiceMetrics } from '../observability/index.js';
import type { Scheduler } from '../scheduler/index.js';
import type { SearchServices } from '../search/index.js';
import { warnAboutStoredSettings } from '../usecases/index.js';
import type { RecordStore } from '../store/index.js';
import { type Clock, systemClock } from '../util/index.js';
import { LiveRunProgress, STORE_POLLED, newWorkerName, type RunWorkerPool } from '../worker/index.js';
import { assembleApi, serializedOn, WEB_FOLDER } from './assemble-api.js';
import { assembleScheduler } from './assemble-scheduler.js';
import { assembleSearch } from './assemble-search.js';
import { assembleUseCases } from './assemble-use-cases.js';
import { assembleWebhooks } from './assemble-webhooks.js';
import { assembleWorker } from './assemble-worker.js';
import { issueDemoKey } from './bootstrap.js';
import { loadAdminToken, saveAdminToken } from './data-dir.js';
import { openServingDataDir } from './serving-data-dir.js';
import { type ServiceParts, takenRoles } from './service-parts.js';
import { listenFailure } from './startup-error.js';

export interface RunningKumo {
  app: FastifyInstance;
  store: RecordStore;
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

export interface StartKumoOptions {
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

/**
 * Starts `kumo serve` with the roles of the configuration (docs/operations.md, Roles), building
 * each part once, in the order of what it needs (docs/design/layers.md, Wiring in order): the
 * logger, the data directory and store, search, webhooks, the worker, the use cases, the
 * scheduler, the HTTP server; then it listens and starts what runs by itself. A listen that fails
 * for a setting (port in use, ...) throws a StartupError naming it.
 */
export async function startKumo(
  config: KumoConfig,
  clock: Clock = systemClock,
  options: StartKumoOptions = {},
): Promise<RunningKumo> {
  const roles = takenRoles(config);
  const logger = createServiceLogger({ level: config.logLevel, stream: options.logStream });
  // A process with every role crawls with a shared database alone; the workers of a split cluster
  // crawl with it together (docs/operations.md, Roles).
  const crawlingLock = roles.worker ? (roles.every ? 'exclusive' : 'shared') : undefined;
  const { paths, artifacts, store, releaseLock } = await openServingDataDir(
    config,
    options.env,
    crawlingLock,
  );
  // One registry per instance (several services may run in one process); read by GET /metrics.
  const metrics = new ServiceMetrics();
  metrics.setSources({
    runsByState: () => store.runs.countByState(),
    pendingDeliveries: async () => store.deliveries.countPending?.(),
  });
  const parts: ServiceParts = {
    config,
    clock,
    env: options.env,
    roles,
    logger,
    metrics,
    paths,
    artifacts,
    store,
    workerName: newWorkerName(),
  };
  // Until the server listens, a step that fails closes what was opened (PostgreSQL connections, a
  // listening client, threads would keep the process alive) and frees the data directory, so the
  // start ends with its error. Each part adds its close as it is built.
  const opened: (() => unknown)[] = [];
  try {
    if (crawlingLock === 'exclusive') {
      // The database is this process's alone: whatever held a run before is gone, so the runs a
      // crashed process left resume now rather than when their leases end.
      await store.runLeases?.releaseAll();
      await store.searchGenerations?.releaseAllWriters();
    }
    // Settings stored before patterns ran on RE2 (docs/operations.md, Patterns stored before RE2).
    if (roles.api || roles.worker) await warnAboutStoredSettings(store, logger);
    const admin = loadAdminToken(config.adminToken, paths.adminToken);
    const search = await assembleSearch(parts);
    opened.push(
      () => search.services.close(),
      () => search.writer?.close(),
    );
    const webhooks = assembleWebhooks(parts);
    // Every page's progress of the runs this process crawls, for the console's run page.
    const live = new LiveRunProgress();
    const worker = roles.worker
      ? await assembleWorker(parts, { events: webhooks.events, searchFeed: search.feeder, live })
      : undefined;
    if (worker !== undefined) opened.push(() => worker.threads.close());
    const useCases = assembleUseCases(parts, worker?.pool ?? STORE_POLLED, search, live, webhooks.nudge);
    opened.push(() => useCases.tenantWork.close());
    const scheduled = roles.scheduler ? assembleScheduler(parts, useCases.scheduledCrawl) : undefined;
    const app = await assembleApi(parts, {
      useCases,
      search,
      worker,
      scheduler: scheduled,
      adminToken: admin.token,
      webFolder: options.webFolder ?? WEB_FOLDER,
    });
    opened.push(() => app.close());
    const address = await app.listen({ host: config.host, port: config.port }).catch((error: unknown) => {
      throw listenFailure(error, config.host, config.port) ?? error;
    });

    // Shown once, so made only now that the server listens (docs/operations.md, First start).
    const issuedDemoKey = roles.api
      ? await serializedOn(parts)(() => issueDemoKey(store, clock, config.bootstrapApiKey))
      : undefined;
    const pinnedDemoKeyIssued = issuedDemoKey !== undefined && config.bootstrapApiKey !== undefined;
    if (admin.created) saveAdminToken(paths.adminToken, admin.token);
    // The pool claims nothing before it has read the runs to resume, so a run queued meanwhile
    // waits for them (they hold their slots).
    await worker?.pool.start();
    webhooks.dispatcher?.start();
    scheduled?.start();

    let closing: Promise<void> | undefined;
    const shutDown = async (): Promise<void> => {
      // First: from now on requests answer 503 with Retry-After (new connections while the
      // listener is still open, and connections kept alive), so nothing starts new work during
      // the drain.
      markShuttingDown(app);
      scheduled?.stop();
      // Running crawls drain while the listener answers those 503s: pages in flight finish and
      // are stored (at most the pool's drain time, then they are aborted); the runs stay 2020 and
      // resume at the next start (on a shared store: another worker resumes them at once).
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
        await Promise.all([worker?.threads.close(), webhooks.dispatcher?.stop()]);
      } finally {
        // Whatever failed above, the store is closed and the lock released, so a restart can start.
        try {
          await Promise.all([search.services.close(), useCases.tenantWork.close()]);
          search.writer?.close();
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
      scheduler: scheduled?.scheduler,
      searchServices: search.services,
      url: address,
      createdDemoKey: pinnedDemoKeyIssued ? undefined : issuedDemoKey,
      pinnedDemoKeyIssued,
      createdAdminToken: admin.created ? admin.token : undefined,
      browserStatus: () => worker?.browserStatus(),
      close() {
        closing ??= shutDown();
        return closing;
      },
    };
  } catch (error) {
    for (const close of opened.reverse()) await (async () => close())().catch(() => undefined);
    await store.close().catch(() => undefined);
    releaseLock();
    throw error;
  }
}
