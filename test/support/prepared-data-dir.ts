/**
 * A data directory as `kumo serve` leaves it after its first start, made without starting a
 * server: `kumo admin`, `kumo index` and `kumo search` refuse to work without one.
 */
import { ensureDataDir, openRecordStore } from '../../src/startup/index.js';
import { bootstrapDemo } from './demo-tenant.js';
import { testDatabaseUrl } from './test-store.js';

/**
 * Creates the store of `dataDir` (its kumo.db, or in the PostgreSQL pass its database, which
 * the `kumo` commands a test runs with that KUMO_DATA_DIR are given); with `demoTenant` also the demo tenant and its search service 1
 * (without an API key), otherwise the store stays empty, so a test's first contract is contract 1.
 */
export async function prepareDataDir(
  dataDir: string,
  { demoTenant }: { demoTenant: boolean },
): Promise<void> {
  const databaseUrl = await testDatabaseUrl(dataDir);
  const store = await openRecordStore({ databaseUrl, secretKey: undefined }, ensureDataDir(dataDir));
  try {
    if (demoTenant) await bootstrapDemo(store);
  } finally {
    await store.close();
  }
}
