import type { ArtifactStore } from '../blob/index.js';
import { type KumoConfig, type dataPaths, takesEveryRole } from '../config/index.js';
import type { ServiceLogger } from '../observability/service-logger.js';
import type { ServiceMetrics } from '../observability/index.js';
import type { RecordStore } from '../store/index.js';
import type { Clock } from '../util/index.js';

/** The roles one `kumo serve` process takes (docs/operations.md, Roles). */
export interface TakenRoles {
  api: boolean;
  worker: boolean;
  scheduler: boolean;
  search: boolean;
  /** All four: the embedded service, or the one crawling process of a shared database. */
  every: boolean;
}

export function takenRoles(config: KumoConfig): TakenRoles {
  const { roles } = config;
  return {
    api: roles.includes('api'),
    worker: roles.includes('worker'),
    scheduler: roles.includes('scheduler'),
    search: roles.includes('search'),
    every: takesEveryRole(roles),
  };
}

/**
 * What every role's assembly starts from, built before any of them (docs/design/layers.md,
 * Wiring in order): the configuration, the logger and metrics, the locked data directory, the
 * artifact storage and the record store.
 */
export interface ServiceParts {
  config: KumoConfig;
  clock: Clock;
  /** The environment the object storage clients read. */
  env: NodeJS.ProcessEnv | undefined;
  roles: TakenRoles;
  logger: ServiceLogger;
  metrics: ServiceMetrics;
  paths: ReturnType<typeof dataPaths>;
  artifacts: ArtifactStore;
  store: RecordStore;
  /** Names this process in the run leases, host tenures and search writer leases of a shared database. */
  workerName: string;
}
