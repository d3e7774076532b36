import { existsSync } from 'node:fs';
import type { SearchServiceRecord } from '../store/index.js';
import type { KumoConfig } from '../config/index.js';
import { dataPaths } from './data-dir.js';
import { openRecordStore } from './open-record-store.js';

/**
 * The data directory a command needs is not there. Only `kumo serve` makes one (docs/operations.md,
 * Data directory): `kumo index`, `kumo search` and `kumo admin` run from another folder would
 * otherwise fill a new `./data` that the server never reads.
 */
export class DataDirError extends Error {
  override name = 'DataDirError';
}

/** `--service N` names no search service of the data directory; the message lists those there are. */
export class UnknownSearchServiceError extends Error {
  override name = 'UnknownSearchServiceError';
}

/**
 * The paths of a data directory `kumo serve` has made; DataDirError otherwise. With SQLite it
 * holds kumo.db; with a PostgreSQL database (KUMO_DATABASE_URL) the records are there, and the
 * folder holds the rest (secrets, search indexes).
 */
export function existingDataDir(
  dataDir: string,
  config: Pick<KumoConfig, 'databaseUrl'> = { databaseUrl: undefined },
): ReturnType<typeof dataPaths> {
  const paths = dataPaths(dataDir);
  if (config.databaseUrl === undefined ? existsSync(paths.database) : existsSync(paths.root)) return paths;
  const found = existsSync(paths.root)
    ? `${paths.root} is not a kumo data directory (it holds no kumo.db)`
    : `there is no data directory ${paths.root}`;
  throw new DataDirError(
    `${found}; set KUMO_DATA_DIR to the data directory of kumo serve, or run the command in the ` +
      'folder kumo serve runs in (kumo serve creates the data directory at its first start)',
  );
}

/**
 * The search service `serviceId` of an existing data directory (DataDirError without one), or
 * UnknownSearchServiceError listing the services there are: an index built for an unknown id would
 * be one no search API request reaches.
 */
export async function existingSearchService(
  config: Pick<KumoConfig, 'dataDir' | 'databaseUrl' | 'secretKey'>,
  serviceId: number,
): Promise<{ paths: ReturnType<typeof dataPaths>; service: SearchServiceRecord }> {
  const paths = existingDataDir(config.dataDir, config);
  const store = await openRecordStore(config, paths);
  try {
    const service = await store.searchServices.get(serviceId);
    if (service !== undefined) return { paths, service };
    const services = await store.searchServices.list();
    const known =
      services.length === 0
        ? `there are none in ${paths.root} yet (kumo admin searchservice create adds one)`
        : `the search services in ${paths.root} are:\n` +
          services
            .map((s) => `  ${s.id}  ${s.name} (contract ${s.contractId}, service group ${s.servicegroupId})`)
            .join('\n');
    throw new UnknownSearchServiceError(`--service: no search service ${serviceId}; ${known}`);
  } finally {
    await store.close();
  }
}
