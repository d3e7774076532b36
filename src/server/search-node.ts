import type { FastifyInstance } from 'fastify';
import { DownloadSigner } from '../api/download-signer.js';
import { buildApp } from '../api/build-app.js';
import { markShuttingDown } from '../api/hooks/shutting-down.js';
import { loadWebAssets } from '../api/routes/widget-assets.js';
import type { KumoConfig } from '../config/config.js';
import { ServiceMetrics } from '../observability/service-metrics.js';
import { InstantCrawlService } from '../service/instant-crawl-service.js';
import { Management } from '../service/management/index.js';
import { ScheduledCrawlService } from '../service/scheduled-crawl-service.js';
import { SearchServices } from '../service/search-services.js';
import type { ServiceStore } from '../store/service-store.js';
import { type Clock, systemClock } from '../util/clock.js';
import { LiveRunProgress } from '../worker/live-run-progress.js';
import { loadAdminToken, loadSigningSecret, saveAdminToken } from './data-dir.js';
import { appSettingsOf, openServingDataDir } from './serving-data-dir.js';
import { runFilesOf } from './run-files.js';
import { publishedGenerationParts } from './search-generation-parts.js';
import { listenFailure, StartupError } from './startup-error.js';
import type { StartServiceOptions } from './kumo-service.js';

/** A running search node (`kumo serve --roles search`). */
export interface RunningSearchNode {
  app: FastifyInstance;
  store: ServiceStore;
  url: string;
  searchServices: SearchServices;
  /** The management API token when this start generated it (it guards /metrics), else undefined. */
  createdAdminToken: string | undefined;
  close(): Promise<void>;
}

/** dist/web, seen from dist/src/server (docs/architecture.md, Browser side). */
const WEB_FOLDER = new URL('../../web/', import.meta.url);

/** Crawls are never started here: a search node has no worker. */
const NO_DISPATCH = { notifyPending: () => undefined, cancelRun: () => undefined, runEnded: () => undefined };

/**
 * Starts a search node (docs/operations.md, Roles): the site search API, widget and hosted search
 * pages, health check and metrics, answered from the search indexes other processes publish
 * (docs/architecture.md, Search nodes), with its query and click counts in the shared store. Any
 * number may run beside the process that crawls and feeds the indexes; none holds the database.
 */
export async function startSearchNode(
  config: KumoConfig,
  clock: Clock = systemClock,
  options: StartServiceOptions = {},
): Promise<RunningSearchNode> {
  if (config.databaseUrl === undefined || config.blobUrl === undefined)
    throw new StartupError(
      'KUMO_ROLES: a search node needs KUMO_DATABASE_URL and KUMO_BLOB_URL, where search indexes are published',
    );
  const { paths, artifacts, store, releaseLock } = await openServingDataDir(config, options.env, false);
  const appRef: { current?: FastifyInstance } = {};
  const generations = publishedGenerationParts(store, config, paths, options.env);
  const searchServices = new SearchServices(store.searchServices, config.dataDir, clock, {
    onFlushError: (error) => appRef.current?.log.error({ err: error }, 'writing search activity failed'),
    onWarning: (fields, message) => appRef.current?.log.warn(fields, message),
    analytics: { timezone: config.timezone, retentionDays: config.searchLogRetentionDays },
    sharedActivity: store.searchActivity,
    generations: generations && { store: generations.store, cache: generations.cache, mode: 'follow' },
  });
  const release = async () => {
    try {
      await searchServices.close();
      await store.close();
    } finally {
      releaseLock();
    }
  };
  const admin = loadAdminToken(config.adminToken, paths.adminToken);
  const instantCrawl = new InstantCrawlService(store.runs, NO_DISPATCH, clock);
  const scheduledCrawl = new ScheduledCrawlService(store, NO_DISPATCH, clock, config.timezone);
  let app: FastifyInstance;
  try {
    app = await buildApp({
      store,
      instantCrawl,
      scheduledCrawl,
      searchServices,
      management: new Management({
        store,
        scheduledCrawl,
        clock,
        timezone: config.timezone,
        runs: { instantCrawl, live: new LiveRunProgress(), files: runFilesOf(artifacts) },
        searchIndexes: searchServices,
      }),
      adminToken: admin.token,
      artifacts,
      signer: new DownloadSigner(loadSigningSecret(config.signingSecret, paths.signingSecret)),
      clock,
      settings: appSettingsOf(config),
      logger: { level: config.logLevel, ...(options.logStream && { stream: options.logStream }) },
      // What a node depends on: the database (store) and the bucket its generations come from.
      observability: {
        metrics: new ServiceMetrics(),
        health: { blobStoreProblem: () => artifacts.healthProblem() },
      },
      webAssets: loadWebAssets(options.webFolder ?? WEB_FOLDER),
      surface: 'search',
    });
    appRef.current = app;
    await searchServices.follow();
  } catch (error) {
    await release();
    throw error;
  }
  let address: string;
  try {
    address = await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await app.close();
    await release();
    throw listenFailure(error, config.host, config.port) ?? error;
  }
  if (admin.created) saveAdminToken(paths.adminToken, admin.token);
  let closing: Promise<void> | undefined;
  const shutDown = async () => {
    markShuttingDown(app);
    const reaper = setInterval(() => app.server.closeIdleConnections(), 100);
    try {
      await app.close();
    } finally {
      clearInterval(reaper);
      await release();
    }
  };
  return {
    app,
    store,
    url: address,
    searchServices,
    createdAdminToken: admin.created ? admin.token : undefined,
    close: () => (closing ??= shutDown()),
  };
}
