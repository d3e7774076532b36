import type { KumoConfig, dataPaths } from '../config/index.js';
import type { CrawlingLockMode } from '../store/postgres/index.js';
import type { RecordStore } from '../store/index.js';
import { openSqliteRecordStore } from '../store/sqlite/index.js';
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
    const { openPostgresRecordStore } = await import('../store/postgres/index.js');
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
