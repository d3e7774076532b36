import type { FastifyInstance } from 'fastify';
import { buildApp } from '../api/build-app.js';
import { DownloadSigner } from '../api/download-signer.js';
import { LocalArtifactStore } from '../blob/local-artifact-store.js';
import { type BrowserAvailability, probeChromium } from '../browser/chromium-launch.js';
import { createRenderer } from '../browser/create-renderer.js';
import type { KumoConfig } from '../config/config.js';
import { createUndiciFetcher } from '../crawler/http-fetcher.js';
import { fetchLimitsOf } from '../crawler/page-fetch.js';
import { AddressPolicy } from '../net/address-policy.js';
import type { ServiceStore } from '../store/service-store.js';
import { openSqliteServiceStore } from '../store/sqlite/open-service-store.js';
import { type Clock, systemClock } from '../util/clock.js';
import { defaultUserAgent } from '../util/version.js';
import { RunWorkerPool } from '../worker/run-worker-pool.js';
import { bootstrapDemoTenant } from './bootstrap.js';
import { Scheduler } from '../scheduler/scheduler.js';
import { RunEventPublisher } from '../webhooks/run-event-publisher.js';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import { acquireServeLock, ensureDataDir, loadAdminToken, loadSigningSecret } from './data-dir.js';
import { InstantCrawlService } from './instant-crawl-service.js';
import { ScheduledCrawlService } from './scheduled-crawl-service.js';
import { SearchFeeder } from './search-feeder.js';
import { SearchServices } from './search-services.js';
import { sweepExpiredArtifacts } from './retention-sweeper.js';

export interface RunningService {
  app: FastifyInstance;
  store: ServiceStore;
  pool: RunWorkerPool;
  /** Base URL the server listens on. */
  url: string;
  scheduler: Scheduler;
  /** The demo key when this start created it (printed once), else undefined. */
  createdDemoKey: string | undefined;
  /** The management API token when this start generated it (printed once), else undefined. */
  createdAdminToken: string | undefined;
  /** Whether screenshots and wait_type 2 can run (Chromium found and starting). */
  browserStatus(): BrowserAvailability;
  close(): Promise<void>;
}

const RETENTION_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** Starts `kumo serve`: store, bootstrap, worker pool, HTTP server, retention sweeps. */
export async function startService(config: KumoConfig, clock: Clock = systemClock): Promise<RunningService> {
  const paths = ensureDataDir(config.dataDir);
  const releaseLock = acquireServeLock(paths.lock);
  const store = openSqliteServiceStore(paths.database);
  const createdDemoKey = bootstrapDemoTenant(store, clock, config.bootstrapApiKey);
  const admin = loadAdminToken(config.adminToken, paths.adminToken);
  const signer = new DownloadSigner(loadSigningSecret(config.signingSecret, paths.signingSecret));
  const artifacts = new LocalArtifactStore(paths.artifacts);
  const fetcher = createUndiciFetcher();
  const logger = { level: config.logLevel };
  let browserStatus: BrowserAvailability = await probeChromium(config.chromiumPath);
  const browser = createRenderer(config, new AddressPolicy(config.allowPrivateNetworks), {
    launched: (version) => {
      browserStatus = { available: true, executablePath: config.chromiumPath, version };
    },
    lost: () => app.log.warn('the browser exited; it is started again for the next rendered page'),
  });
  const userAgent = defaultUserAgent(config.publicUrl);

  // The pool logs through the app's logger, so the app is built first with a dispatcher that
  // forwards to the pool once it exists.
  const poolRef: { current?: RunWorkerPool } = {};
  const dispatcher = {
    notifyPending: () => poolRef.current?.notifyPending(),
    cancelRun: (runId: number) => poolRef.current?.cancelRun(runId),
    runEnded: (runId: number) => poolRef.current?.runEnded(runId),
  };
  const instantCrawl = new InstantCrawlService(store.runs, dispatcher, clock);
  const scheduledCrawl = new ScheduledCrawlService(store, dispatcher, clock, config.timezone);
  const searchLog: { current?: FastifyInstance } = {};
  const searchServices = new SearchServices(store.searchServices, config.dataDir, clock, (error) =>
    searchLog.current?.log.error({ err: error }, 'writing search activity failed'),
  );
  const webhookRef: { current?: WebhookDispatcher } = {};
  const app = await buildApp({
    store,
    instantCrawl,
    scheduledCrawl,
    searchServices,
    adminToken: admin.token,
    onDeliveriesQueued: () => webhookRef.current?.nudge(),
    artifacts,
    signer,
    clock,
    settings: {
      publicUrl: config.publicUrl,
      timezone: config.timezone,
      instantCrawlerBasePath: config.instantCrawlerBasePath,
      crawlerBasePath: config.crawlerBasePath,
      finderBasePath: config.finderBasePath,
    },
    logger,
    browserStatus: () => browserStatus,
  });
  searchLog.current = app;
  if (browserStatus.available)
    app.log.info({ browser: browserStatus.version }, 'browser rendering available');
  else app.log.warn(`browser rendering unavailable (screenshots, wait_type 2): ${browserStatus.reason}`);
  const webhooks = new WebhookDispatcher({
    deliveries: store.deliveries,
    webhooks: store.webhooks,
    clock,
    backoffSeconds: config.webhookBackoffSeconds,
    timeoutMs: config.webhookTimeoutSeconds * 1000,
    userAgent,
    logger: app.log,
    // Webhook URLs are chosen by tenants: they may not aim the service at its own network.
    addresses: new AddressPolicy(config.allowPrivateNetworks),
  });
  webhookRef.current = webhooks;
  const events = new RunEventPublisher({
    webhooks: store.webhooks,
    deliveries: store.deliveries,
    clock,
    timezone: config.timezone,
    onQueued: () => webhooks.nudge(),
  });
  const pool = new RunWorkerPool({
    runs: store.runs,
    artifacts,
    fetcher,
    clock,
    limits: fetchLimitsOf(config),
    workRoot: paths.work,
    concurrency: config.workerConcurrency,
    defaultUserAgent: userAgent,
    timezone: config.timezone,
    renderer: browser.renderer,
    logger: app.log,
    lifecycle: {
      started: (run) => events.publish('crawl.started', run),
      finished: (run) => events.publish('crawl.finished', run),
    },
    searchFeed: new SearchFeeder(store.serviceSettings, store.runs, searchServices),
  });
  const scheduler = new Scheduler(scheduledCrawl, config.schedulerIntervalSeconds * 1000, app.log, () =>
    clock.nowMicros(),
  );

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

  const address = await app.listen({ host: config.host, port: config.port });
  poolRef.current = pool;
  pool.start();
  webhooks.start();
  scheduler.start();
  let closed = false;
  return {
    app,
    store,
    pool,
    scheduler,
    url: address,
    createdDemoKey,
    createdAdminToken: admin.created ? admin.token : undefined,
    browserStatus: () => browserStatus,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(sweepTimer);
      scheduler.stop();
      // app.close() drops only connections idle at that moment; a response finishing during the
      // stop would keep its kept-alive connection (and the stop) open until the client leaves.
      const reaper = setInterval(() => app.server.closeIdleConnections(), 100);
      try {
        await Promise.all([app.close(), pool.stop()]);
      } finally {
        clearInterval(reaper);
      }
      await Promise.all([fetcher.close(), browser.pool.close(), webhooks.stop()]);
      searchServices.close();
      store.close();
      releaseLock();
    },
  };
}
