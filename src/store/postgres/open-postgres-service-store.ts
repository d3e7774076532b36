import { SecretBox } from '../../security/secret-box.js';
import type { ServiceStore } from '../service-store.js';
import { PgAccountStore } from './pg-account-store.js';
import { PgApiKeyStore } from './pg-api-key-store.js';
import { PgAuditStore } from './pg-audit-store.js';
import { connectPostgres } from './pg-connection.js';
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

export interface PostgresServiceStoreOptions {
  /** The key encrypting stored secrets (webhook secrets, setting passwords); 32 bytes. */
  secretKey: Buffer;
  /** Connections of the pool at most (default 10). */
  maxConnections?: number;
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
  try {
    await migratePostgres(sql);
    await checkSecretKey(sql, box);
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
    accounts: new PgAccountStore(sql),
    sessions: new PgSessionStore(sql),
    operatorSessions: new PgOperatorSessionStore(sql),
    audit: new PgAuditStore(sql),
    ping: async () => (await sql`SELECT 1 AS one`).length === 1,
    close: () => sql.end({ timeout: 5 }),
  };
}
