import { indexingBudgetOf, SearchFeeder, type SearchIndexWriter, SearchServices } from '../search/index.js';
import { publishedGenerationParts, searchIndexWriterOf } from './search-generation-parts.js';
import type { ServiceParts } from './service-parts.js';

/** The search indexes of a process: served (searched, managed) and, with the worker role, fed. */
export interface SearchAssembly {
  services: SearchServices;
  /** Publishes the generations of a shared store; only where runs are crawled. */
  writer: SearchIndexWriter | undefined;
  /** What the crawl threads feed the search services through. */
  feeder: SearchFeeder;
}

/**
 * The search role, and what every other role needs of search (docs/design/scale-out.md, Search
 * nodes): on a shared store the process with every role serves the indexes it writes, every other
 * one follows the published generations, told of each from the start.
 */
export async function assembleSearch(parts: ServiceParts): Promise<SearchAssembly> {
  const { config, clock, logger, store, roles } = parts;
  const published = await publishedGenerationParts(store, config, parts.paths, parts.env);
  const writer =
    roles.worker && published
      ? searchIndexWriterOf(published, config, parts.paths, clock, parts.workerName, (serviceId) =>
          logger.info(
            { search_service_id: serviceId },
            'waiting for another process to finish writing this search service',
          ),
        )
      : undefined;
  const services = new SearchServices(store.searchServices, config.dataDir, clock, {
    onFlushError: (error) => logger.error({ err: error }, 'writing search activity failed'),
    onWarning: (fields, message) => logger.warn(fields, message),
    analytics: { timezone: config.timezone, retentionDays: config.searchLogRetentionDays },
    sharedActivity: store.searchActivity,
    limits: { maxOpen: config.searchOpenServices, idleMs: config.searchIdleSeconds * 1000 },
    generations: published && {
      store: published.store,
      cache: published.cache,
      mode: roles.every ? 'restore' : 'follow',
    },
  });
  try {
    await services.follow();
  } catch (error) {
    writer?.close();
    await services.close();
    throw error;
  }
  return {
    services,
    writer,
    feeder: new SearchFeeder(
      store.serviceSettings,
      store.runs,
      services,
      indexingBudgetOf(config.indexMemoryMb),
      writer,
    ),
  };
}
