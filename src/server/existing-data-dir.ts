import { existsSync } from 'node:fs';
import type { SearchServiceRecord } from '../store/service-store.js';
import { openSqliteServiceStore } from '../store/sqlite/open-service-store.js';
import { dataPaths, loadSecretKey } from './data-dir.js';

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

/** The paths of a data directory `kumo serve` has made (it holds kumo.db); DataDirError otherwise. */
export function existingDataDir(dataDir: string): ReturnType<typeof dataPaths> {
  const paths = dataPaths(dataDir);
  if (existsSync(paths.database)) return paths;
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
  dataDir: string,
  configuredSecretKey: string | undefined,
  serviceId: number,
): Promise<{ paths: ReturnType<typeof dataPaths>; service: SearchServiceRecord }> {
  const paths = existingDataDir(dataDir);
  const store = openSqliteServiceStore(paths.database, {
    secretKey: loadSecretKey(configuredSecretKey, paths.secretKey),
  });
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
