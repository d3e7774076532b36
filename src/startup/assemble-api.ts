import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp, DownloadSigner, isWebAssetsProblem, loadWebAssets } from '../api/index.js';
import type { SearchAssembly } from './assemble-search.js';
import type { UseCases } from './assemble-use-cases.js';
import type { CrawlWorker } from './assemble-worker.js';
import type { SchedulerAssembly } from './assemble-scheduler.js';
import { bootstrapDemoTenant } from './bootstrap.js';
import { loadSigningSecret } from './data-dir.js';
import { appSettingsOf } from './serving-data-dir.js';
import type { ServiceParts } from './service-parts.js';

/** dist/web, seen from dist/src/startup (docs/design/browser-side.md, Browser side). */
export const WEB_FOLDER = new URL('../../web/', import.meta.url);

/** What the HTTP server reports on besides the use cases: the other roles of the process. */
export interface ApiSources {
  useCases: UseCases;
  search: SearchAssembly;
  worker: CrawlWorker | undefined;
  scheduler: SchedulerAssembly | undefined;
  adminToken: string;
  webFolder: URL;
}

/** API processes starting at once on a shared store do one thing at a time where it says so. */
export function serializedOn(parts: ServiceParts): <T>(work: () => Promise<T>) => Promise<T> {
  return (work) => parts.store.serialized?.(work) ?? work();
}

/**
 * The HTTP server every process has (health check and metrics), answering the groups of its roles
 * (docs/operations.md, Roles). With the api role, the demo tenant of a first start is made first
 * (docs/operations.md, First start). Not listening yet.
 */
export async function assembleApi(parts: ServiceParts, sources: ApiSources): Promise<FastifyInstance> {
  const { config, store, roles, logger } = parts;
  const { useCases, worker } = sources;
  if (roles.api)
    await serializedOn(parts)(() =>
      bootstrapDemoTenant(store, useCases.management, parts.clock, config.bootstrapApiKey),
    );
  parts.metrics.followGenerations(() => sources.search.services.followedGenerations());
  const webAssets = loadWebAssets(sources.webFolder);
  if (isWebAssetsProblem(webAssets) && (roles.api || roles.search))
    logger.warn(
      { folder: fileURLToPath(sources.webFolder) },
      `the search widget and hosted search pages answer 503: ${webAssets.problem}`,
    );
  return buildApp({
    store,
    ...useCases,
    searchServices: sources.search.services,
    adminToken: sources.adminToken,
    artifacts: parts.artifacts,
    signer: new DownloadSigner(loadSigningSecret(config.signingSecret, parts.paths.signingSecret)),
    clock: parts.clock,
    settings: appSettingsOf(config),
    logger,
    browserStatus: () => worker?.browserStatus(),
    observability: {
      metrics: parts.metrics,
      // What this process depends on: the store and the artifact storage always, the scheduler and
      // the run leases where their roles run.
      health: {
        blobStoreProblem: () => parts.artifacts.healthProblem(),
        searchGenerations: () => sources.search.services.followedGenerations(),
        ...(sources.scheduler && { scheduler: () => sources.scheduler?.scheduler.state() }),
        ...(worker &&
          store.runLeases && {
            runLeases: () =>
              worker.leasing?.health() ?? {
                held: 0,
                sinceRenewedMs: undefined,
                leaseMs: config.runLeaseSeconds * 1000,
              },
          }),
      },
    },
    webAssets,
    answers: { api: roles.api, search: roles.search },
  });
}
