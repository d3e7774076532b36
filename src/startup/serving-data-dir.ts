import type { AppDeps } from '../api/index.js';
import { type ArtifactStore, openArtifactStore } from '../blob/index.js';
import type { KumoConfig } from '../config/index.js';
import type { CrawlingLockMode } from '../store/postgres/index.js';
import type { RecordStore } from '../store/index.js';
import { acquireServeLock, ensureDataDir } from './data-dir.js';
import { openRecordStore } from './open-record-store.js';

/** What a serving process holds from its start: its data directory (locked), artifacts and store. */
export interface ServingDataDir {
  paths: ReturnType<typeof ensureDataDir>;
  artifacts: ArtifactStore;
  store: RecordStore;
  /** Frees the data directory for the next start. */
  releaseLock: () => void;
}

/**
 * Opens what `kumo serve` (any role) starts on: the data directory, created and locked for this
 * process; the artifact storage, built before the lock is taken, since a wrong AWS_* variable
 * stops the start there; and the record store, held for crawling as `crawlingLock` says. A
 * store that cannot be opened leaves the directory free again.
 */
export async function openServingDataDir(
  config: KumoConfig,
  env: NodeJS.ProcessEnv | undefined,
  crawlingLock: CrawlingLockMode | undefined,
): Promise<ServingDataDir> {
  const paths = ensureDataDir(config.dataDir);
  const artifacts = await openArtifactStore(
    config.blobUrl,
    { artifacts: paths.artifacts, cacheRoot: paths.artifactCache },
    env,
  );
  const releaseLock = acquireServeLock(paths.lock, paths.pid);
  try {
    const store = await openRecordStore(config, paths, { crawlingLock });
    return { paths, artifacts, store, releaseLock };
  } catch (error) {
    releaseLock();
    throw error;
  }
}

/** The API's settings from the configuration, the same for every role. */
export function appSettingsOf(config: KumoConfig): AppDeps['settings'] {
  return {
    publicUrl: config.publicUrl,
    searchPublicUrl: config.searchPublicUrl,
    timezone: config.timezone,
    instantCrawlerBasePath: config.instantCrawlerBasePath,
    crawlerBasePath: config.crawlerBasePath,
    finderBasePath: config.finderBasePath,
    rateLimitPerMinute: config.rateLimitPerMinute,
    blobDownloads: config.blobDownloads,
  };
}
