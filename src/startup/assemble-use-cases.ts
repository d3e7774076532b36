import { InstantCrawlService, Management, ScheduledCrawlService, TenantWork } from '../usecases/index.js';
import type { LiveRunProgress, RunDispatcher } from '../worker/index.js';
import type { SearchAssembly } from './assemble-search.js';
import { runFilesOf } from './run-files.js';
import type { ServiceParts } from './service-parts.js';

/** The use-case layer every adapter calls: the HTTP API, the console, the scheduler. */
export interface UseCases {
  /** Tenants' patterns are checked and matched in these threads, never on the API thread. */
  tenantWork: TenantWork;
  instantCrawl: InstantCrawlService;
  scheduledCrawl: ScheduledCrawlService;
  management: Management;
}

/**
 * `dispatcher`: the worker pool of this process, or, without the worker role, none that acts (the
 * workers of the cluster claim the runs from the store).
 */
export function assembleUseCases(
  parts: ServiceParts,
  dispatcher: RunDispatcher,
  search: SearchAssembly,
  live: LiveRunProgress,
  deliveriesQueued: () => void,
): UseCases {
  const { config, clock, store } = parts;
  const tenantWork = new TenantWork();
  const instantCrawl = new InstantCrawlService(store.runs, dispatcher, clock, tenantWork, {
    maxActiveRunsPerTenant: config.maxActiveRunsPerTenant > 0 ? config.maxActiveRunsPerTenant : undefined,
    runSlots: {
      // A process with every role knows the slots; an API process of a split cluster does not.
      concurrency: parts.roles.every ? config.workerConcurrency : undefined,
      maxRunningPerContract: config.maxRunningPerContract > 0 ? config.maxRunningPerContract : undefined,
    },
  });
  const scheduledCrawl = new ScheduledCrawlService(store, dispatcher, clock, config.timezone);
  const management = new Management({
    store,
    scheduledCrawl,
    tenantWork,
    clock,
    timezone: config.timezone,
    runs: { instantCrawl, live, files: runFilesOf(parts.artifacts) },
    searchIndexes: search.services,
    onDeliveriesQueued: deliveriesQueued,
  });
  return { tenantWork, instantCrawl, scheduledCrawl, management };
}
