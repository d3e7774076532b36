import { PgSearchActivityStore } from './pg-search-activity.js';
import { PgSearchGenerationStore } from './pg-search-generations.js';
import { PgRunLeaseStore } from './pg-run-leases.js';
import type postgres from 'postgres';
import { SecretBox } from '../../security/secret-box.js';
import type { ServiceStore } from '../service-store.js';
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

/** The session lock of the one `kumo serve` of a database (two keys: a namespace and the lock). */
const SOLE_SERVER_LOCK = "hashtext('kumo.serve'), 0";

/** Takes the sole server lock on a connection of its own, kept until the store closes. */
async function holdSoleServer(sql: PgSql): Promise<postgres.ReservedSql> {
  const connection = await sql.reserve();
  const [row] = await connection.unsafe<{ held: boolean }[]>(
    `SELECT pg_try_advisory_lock(${SOLE_SERVER_LOCK}) AS held`,
  );
  if (row?.held === true) return connection;
  connection.release();
  throw new ServerTakenError(
    'another kumo serve already uses this PostgreSQL database; one process per database for now (docs/operations.md, PostgreSQL)',
  );
}

export interface PostgresServiceStoreOptions {
  /** The key encrypting stored secrets (webhook secrets, setting passwords); 32 bytes. */
  secretKey: Buffer;
  /** Connections of the pool at most (default 10). */
  maxConnections?: number;
  /**
   * Holds the database for this process alone while the store is open (`kumo serve`): another
   * one asking fails with ServerTakenError. Search indexes are still kept by each process, so two
   * serving one database would answer from different indexes (docs/operations.md, PostgreSQL).
   */
  soleServer?: boolean;
}

/** Another `kumo serve` holds the database (PostgresServiceStoreOptions.soleServer). */
export class ServerTakenError extends Error {
  override name = 'ServerTakenError';
}

/**
 * The shared ServiceStore: a PostgreSQL database at `url` (`postgres://user:password@host/db`,
 * as KUMO_DATABASE_URL), which several processes may use at once. Opening it applies the schema
 * migrations this build has and the database lacks, then proves the secret key.
 */
export async function openPostgresServiceStore(
  url: string,
  options: PostgresServiceStoreOptions,
): Promise<ServiceStore> {
  const box = new SecretBox(options.secretKey);
  const sql = connectPostgres(url, { maxConnections: options.maxConnections });
  let sole: postgres.ReservedSql | undefined;
  try {
    await migratePostgres(sql);
    await checkSecretKey(sql, box);
    if (options.soleServer === true) sole = await holdSoleServer(sql);
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
    close: async () => {
      // Ending the session releases its advisory lock.
      sole?.release();
      await sql.end({ timeout: 5 });
    },
  };
}
