import type { KumoConfig } from '../config/config.js';
import type { dataPaths } from '../config/data-paths.js';
import type { CrawlingLockMode } from '../store/postgres/open-postgres-record-store.js';
import type { RecordStore } from '../store/record-store.js';
import { openSqliteRecordStore } from '../store/sqlite/open-record-store.js';
import { loadSecretKey } from './data-dir.js';
import { databaseFailure } from './startup-error.js';

/**
 * The record store the configuration names (docs/operations.md, PostgreSQL): the PostgreSQL
 * database of KUMO_DATABASE_URL, shared by every process of a cluster, or the SQLite file of the
 * data directory. Both seal stored secrets with the same key (KUMO_SECRET_KEY, or the data
 * directory's `secret-key` file). The PostgreSQL client is loaded only when a database is named.
 */
export async function openRecordStore(
  config: Pick<KumoConfig, 'databaseUrl' | 'secretKey'>,
  paths: Pick<ReturnType<typeof dataPaths>, 'database' | 'secretKey'>,
  /** `kumo serve` with the worker role: how it holds a PostgreSQL database for crawling. */
  options: { crawlingLock?: CrawlingLockMode } = {},
): Promise<RecordStore> {
  const secretKey = loadSecretKey(config.secretKey, paths.secretKey);
  const { databaseUrl } = config;
  if (databaseUrl !== undefined) {
    const { openPostgresRecordStore } = await import('../store/postgres/open-postgres-record-store.js');
    try {
      return await openPostgresRecordStore(databaseUrl, {
        secretKey,
        crawlingLock: options.crawlingLock,
      });
    } catch (error) {
      throw databaseFailure(error, databaseUrl) ?? error;
    }
  }
  return openSqliteRecordStore(paths.database, { secretKey });
}
