import path from 'node:path';
import { openFileGroups, type FileGroupStore } from '../blob/index.js';
import type { KumoConfig, dataPaths } from '../config/index.js';
import { GenerationCache, SearchIndexWriter } from '../search/index.js';
import type { SearchGenerationStore, RecordStore } from '../store/index.js';
import type { Clock } from '../util/index.js';

/** Published generations of a shared store: their records, their files and a node's local copies. */
export interface PublishedGenerationParts {
  store: SearchGenerationStore;
  files: FileGroupStore;
  cache: GenerationCache;
}

/**
 * With a shared store, search indexes are published as generations (docs/design/scale-out.md, Search
 * nodes): to the bucket with `KUMO_BLOB_URL`, else to `<data>/generations` (then only processes on
 * this data directory can serve them). Undefined on one machine's embedded store.
 */
export async function publishedGenerationParts(
  store: RecordStore,
  config: KumoConfig,
  paths: ReturnType<typeof dataPaths>,
  env: NodeJS.ProcessEnv | undefined,
): Promise<PublishedGenerationParts | undefined> {
  const generations = store.searchGenerations;
  if (generations === undefined) return undefined;
  const files = await openFileGroups('indexes', config.blobUrl, paths.generations, env);
  return { store: generations, files, cache: new GenerationCache(generations, files, paths.searchCache) };
}

/** The writer of a process that feeds search services on a shared store (`owner`: this process). */
export function searchIndexWriterOf(
  published: PublishedGenerationParts,
  config: KumoConfig,
  paths: ReturnType<typeof dataPaths>,
  clock: Clock,
  owner: string,
  onWaiting: (serviceId: number) => void,
): SearchIndexWriter {
  return new SearchIndexWriter({
    generations: published.store,
    files: published.files,
    owner,
    dataDir: config.dataDir,
    scratch: path.join(paths.searchCache, 'incoming'),
    clock,
    onWaiting,
  });
}
