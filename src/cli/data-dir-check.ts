import path from 'node:path';
import type { KumoConfig, dataPaths } from '../config/index.js';
import {
  DataDirError,
  existingDataDir,
  existingSearchService,
  UnknownSearchServiceError,
} from '../startup/index.js';
import type { SearchServiceRecord } from '../store/index.js';
import { UsageError } from './usage-error.js';

type DataPaths = ReturnType<typeof dataPaths>;

/**
 * The data directory of `kumo serve` for `kumo admin`, `index` and `search`, which never create
 * one: refused with the absolute path looked at when missing. A relative KUMO_DATA_DIR (the
 * default ./data) depends on the current folder, so the folder used is named on stderr
 * (docs/operations.md, Data directory).
 */
export function dataDirOfServe(config: KumoConfig): DataPaths {
  return refusedAsUsage(() => noted(config, existingDataDir(config.dataDir, config)));
}

/** dataDirOfServe, and `--service N` one of its search services (refused with the list of them). */
export async function searchServiceOfServe(
  config: KumoConfig,
  serviceId: number,
): Promise<{ paths: DataPaths; service: SearchServiceRecord }> {
  try {
    const found = await existingSearchService(config, serviceId);
    noted(config, found.paths);
    return found;
  } catch (error) {
    throw asUsageError(error);
  }
}

function noted(config: KumoConfig, paths: DataPaths): DataPaths {
  if (!path.isAbsolute(config.dataDir)) {
    process.stderr.write(
      `kumo: using the data directory ${paths.root} (${config.dataDir} from the current folder; KUMO_DATA_DIR names another)\n`,
    );
  }
  return paths;
}

function refusedAsUsage<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    throw asUsageError(error);
  }
}

/** A missing data directory or search service is the caller's mistake: a usage error (exit 2). */
function asUsageError(error: unknown): unknown {
  if (error instanceof DataDirError || error instanceof UnknownSearchServiceError)
    return new UsageError(error.message);
  return error;
}
