/**
 * A data directory as `kumo serve` leaves it after its first start, made without starting a
 * server: `kumo admin`, `kumo index` and `kumo search` refuse to work without one.
 */
import { ensureDataDir } from '../../src/server/data-dir.js';
import { bootstrapDemoTenant } from '../../src/server/bootstrap.js';
import { openSqliteServiceStore } from '../../src/store/sqlite/open-service-store.js';
import { systemClock } from '../../src/util/clock.js';

/**
 * Creates the store in `dataDir`; with `demoTenant` also the demo tenant and its search service 1
 * (without an API key), otherwise the store stays empty, so a test's first contract is contract 1.
 */
export async function prepareDataDir(
  dataDir: string,
  { demoTenant }: { demoTenant: boolean },
): Promise<void> {
  const store = openSqliteServiceStore(ensureDataDir(dataDir).database);
  try {
    if (demoTenant) await bootstrapDemoTenant(store, systemClock, undefined);
  } finally {
    await store.close();
  }
}
