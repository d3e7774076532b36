import { PgSearchActivityStore } from './pg-search-activity.js';
import { PgSearchGenerationStore } from './pg-search-generations.js';
import { PgRunLeaseStore } from './pg-run-leases.js';
import type postgres from 'postgres';
import { SecretBox } from '../../security/index.js';
import { ServerTakenError } from './server-taken-error.js';
import type { RecordStore } from '../record-store.js';
import { PgAccountStore } from './pg-account-store.js';
import { PgApiKeyStore } from './pg-api-key-store.js';
import { PgAuditStore } from './pg-audit-store.js';
import { connectPostgres, type PgSql } from './pg-connection.js';
import { PgCrawlRunStore } from './pg-crawl-run-store.js';
import { PgDeliveryStore } from './pg-delivery-store.js';
import { checkSecretKey } from './pg-key-check.js';
import { migratePostgres } from './pg-migrate.js';
import { PgOperatorSessionStore } from './pg-operator-session-store.js';
import { PgSearchServiceStore } from './pg-search-service-store.js';
import { PgServiceSettingStore } from './pg-service-setting-store.js';
import { PgSessionStore } from './pg-session-store.js';
import { PgTenantStore } from './pg-tenant-store.js';
import { PgWebhookStore } from './pg-webhook-store.js';

/**
 * The session lock of the processes that crawl a database (two keys: a namespace and the lock):
 * a process with every role holds it alone, the workers of a split cluster share it.
 */
const CRAWLING_LOCK = "hashtext('kumo.serve'), 0";
/** The lock serializing the start-up steps of processes starting at once (RecordStore.serialized). */
const START_LOCK = "hashtext('kumo.serve'), 1";

/** Takes the crawling lock on a connection of its own, kept until the store closes. */
async function holdCrawlingLock(sql: PgSql, mode: CrawlingLockMode): Promise<postgres.ReservedSql> {
  const connection = await sql.reserve();
  const take = mode === 'exclusive' ? 'pg_try_advisory_lock' : 'pg_try_advisory_lock_shared';
  const [row] = await connection.unsafe<{ held: boolean }[]>(`SELECT ${take}(${CRAWLING_LOCK}) AS held`);
  if (row?.held === true) return connection;
  connection.release();
  throw new ServerTakenError(
    mode === 'exclusive'
      ? 'another kumo serve already crawls with this PostgreSQL database; a process with every role ' +
          'crawls alone, to run several workers split the roles (docs/operations.md, Roles)'
      : 'a kumo serve with every role crawls with this PostgreSQL database alone; stop it, or run it ' +
          'with split roles too (docs/operations.md, Roles)',
  );
}

/**
 * How a process holds the database for crawling: `exclusive` (every role: it ends the leases a
 * crashed predecessor left and writes the indexes it serves in place), or `shared` (a worker of a
 * split cluster, beside the others).
 */
export type CrawlingLockMode = 'exclusive' | 'shared';

export interface PostgresRecordStoreOptions {
  /** The key encrypting stored secrets (webhook secrets, setting passwords); 32 bytes. */
  secretKey: Buffer;
  /** Connections of the pool at most (default 10). */
  maxConnections?: number;
  /**
   * Holds the database for crawling while the store is open (`kumo serve` with the worker role):
   * a mode that conflicts with another process's fails with ServerTakenError.
   */
  crawlingLock?: CrawlingLockMode;
}

/**
 * The shared RecordStore: a PostgreSQL database at `url` (`postgres://user:password@host/db`,
 * as KUMO_DATABASE_URL), which several processes may use at once. Opening it applies the schema
 * migrations this build has and the database lacks, then proves the secret key.
 */
export async function openPostgresRecordStore(
  url: string,
  options: PostgresRecordStoreOptions,
): Promise<RecordStore> {
  const box = new SecretBox(options.secretKey);
  const sql = connectPostgres(url, { maxConnections: options.maxConnections });
  let crawling: postgres.ReservedSql | undefined;
  try {
    await migratePostgres(sql);
    await checkSecretKey(sql, box);
    if (options.crawlingLock !== undefined) crawling = await holdCrawlingLock(sql, options.crawlingLock);
  } catch (error) {
    await sql.end({ timeout: 5 });
    throw error;
  }
  return {
    tenants: new PgTenantStore(sql),
    searchServices: new PgSearchServiceStore(sql),
    serviceSettings: new PgServiceSettingStore(sql, box),
    webhooks: new PgWebhookStore(sql, box),
    deliveries: new PgDeliveryStore(sql),
    apiKeys: new PgApiKeyStore(sql),
    runs: new PgCrawlRunStore(sql, box),
    runLeases: new PgRunLeaseStore(sql, box),
    searchActivity: new PgSearchActivityStore(sql),
    searchGenerations: new PgSearchGenerationStore(sql),
    accounts: new PgAccountStore(sql),
    sessions: new PgSessionStore(sql),
    operatorSessions: new PgOperatorSessionStore(sql),
    audit: new PgAuditStore(sql),
    ping: async () => (await sql`SELECT 1 AS one`).length === 1,
    serialized: async (work) => {
      const connection = await sql.reserve();
      try {
        await connection.unsafe(`SELECT pg_advisory_lock(${START_LOCK})`);
        try {
          return await work();
        } finally {
          await connection.unsafe(`SELECT pg_advisory_unlock(${START_LOCK})`);
        }
      } finally {
        connection.release();
      }
    },
    close: async () => {
      // Ending the session releases its advisory lock.
      crawling?.release();
      await sql.end({ timeout: 5 });
    },
  };
}
