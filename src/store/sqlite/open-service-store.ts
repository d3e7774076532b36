import type { ServiceStore } from '../service-store.js';
import { openServiceDatabase } from './service-db.js';
import { SqliteApiKeyStore } from './sqlite-api-key-store.js';
import { SqliteCrawlRunStore } from './sqlite-crawl-run-store.js';
import { SqliteDeliveryStore } from './sqlite-delivery-store.js';
import { SqliteSearchServiceStore } from './sqlite-search-service-store.js';
import { SqliteServiceSettingStore } from './sqlite-service-setting-store.js';
import { SqliteTenantStore } from './sqlite-tenant-store.js';
import { SqliteWebhookStore } from './sqlite-webhook-store.js';

/** The embedded ServiceStore: one SQLite file. */
export function openSqliteServiceStore(filePath: string): ServiceStore {
  const db = openServiceDatabase(filePath);
  return {
    tenants: new SqliteTenantStore(db),
    searchServices: new SqliteSearchServiceStore(db),
    serviceSettings: new SqliteServiceSettingStore(db),
    webhooks: new SqliteWebhookStore(db),
    deliveries: new SqliteDeliveryStore(db),
    apiKeys: new SqliteApiKeyStore(db),
    runs: new SqliteCrawlRunStore(db),
    ping: () => db.prepare('SELECT 1 AS one').get() !== undefined,
    close: () => db.close(),
  };
}
