import path from 'node:path';
import { openFileGroups } from '../blob/open-artifact-store.js';
import type { KumoConfig } from '../config/config.js';
import type { dataPaths } from '../config/data-paths.js';
import { GenerationCache } from '../service/generation-cache.js';
import { SearchIndexWriter } from '../service/search-index-writer.js';
import type { SearchGenerationStore } from '../store/search-generations.js';
import type { ServiceStore } from '../store/service-store.js';
import type { Clock } from '../util/clock.js';

/** The parts of a search node on a shared store (docs/architecture.md, Search nodes). */
export interface SearchGenerationParts {
  store: SearchGenerationStore;
  cache: GenerationCache;
  writer: SearchIndexWriter;
}

/**
 * With a shared store, search indexes are published as generations: to the bucket with
 * `KUMO_BLOB_URL`, else to `<data>/generations` (then only processes on this data directory can
 * serve them). Undefined on one machine's embedded store.
 */
export function searchGenerationParts(
  store: ServiceStore,
  config: KumoConfig,
  paths: ReturnType<typeof dataPaths>,
  clock: Clock,
  owner: string,
  env: NodeJS.ProcessEnv | undefined,
  onWaiting: (serviceId: number) => void,
): SearchGenerationParts | undefined {
  const generations = store.searchGenerations;
  if (generations === undefined) return undefined;
  const files = openFileGroups('indexes', config.blobUrl, paths.generations, env);
  return {
    store: generations,
    cache: new GenerationCache(generations, files, paths.searchCache),
    writer: new SearchIndexWriter({
      generations,
      files,
      owner,
      dataDir: config.dataDir,
      scratch: path.join(paths.searchCache, 'incoming'),
      clock,
      onWaiting,
    }),
  };
}
