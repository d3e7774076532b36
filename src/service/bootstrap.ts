import type { ServiceStore } from '../store/service-store.js';
import type { Clock } from '../util/clock.js';
import { apiKeyPrefix, generateApiKey, hashApiKey } from './api-key-codec.js';

export const DEMO_CONTRACT_ID = 1;
export const DEMO_SERVICEGROUP_ID = 1;
export const DEMO_SEARCH_SERVICE_ID = 1;
export const DEMO_SERVICE_SETTING_ID = 1;

/** The demo crawl service setting: a placeholder site, schedule disabled, feeding search service 1. */
const DEMO_SERVICE_SETTING = {
  name: 'demo',
  setting: { seed_urls: ['https://www.example.com/'] },
  schedule: { interval: 0 },
  searchServiceId: DEMO_SEARCH_SERVICE_ID,
};

/**
 * First start with an empty store creates the demo tenant (contract 1, service group 1, crawl
 * service setting 1, search service 1) and its API key; returns the key so the caller can print it once. `pinnedKey` (KUMO_BOOTSTRAP_API_KEY)
 * fixes the key, and is also added on later starts when that key is not yet known.
 */
export function bootstrapDemoTenant(
  store: ServiceStore,
  clock: Clock,
  pinnedKey: string | undefined,
): string | undefined {
  const now = clock.nowMicros();
  const tenant = { contractId: DEMO_CONTRACT_ID, servicegroupId: DEMO_SERVICEGROUP_ID };
  if (store.tenants.listContracts().length === 0) {
    store.tenants.createContract('demo', now, DEMO_CONTRACT_ID);
    store.tenants.createServiceGroup(DEMO_CONTRACT_ID, 'demo', now, DEMO_SERVICEGROUP_ID);
    const key = pinnedKey ?? generateApiKey();
    store.apiKeys.insert(tenant, hashApiKey(key), apiKeyPrefix(key), 'demo key', now);
    store.searchServices.create(tenant, 'demo', {}, now, DEMO_SEARCH_SERVICE_ID);
    store.serviceSettings.create(tenant, DEMO_SERVICE_SETTING, 0, now, DEMO_SERVICE_SETTING_ID);
    return key;
  }
  // A data directory made before search services existed gains the demo search service.
  if (
    store.searchServices.get(DEMO_SEARCH_SERVICE_ID) === undefined &&
    store.tenants.getServiceGroup(DEMO_CONTRACT_ID, DEMO_SERVICEGROUP_ID)
  ) {
    store.searchServices.create(tenant, 'demo', {}, now, DEMO_SEARCH_SERVICE_ID);
  }
  // ... and the demo crawl service setting, in one made before scheduled crawls existed.
  if (
    !store.serviceSettings.known(DEMO_SERVICE_SETTING_ID) &&
    store.serviceSettings.list().length === 0 &&
    store.searchServices.get(DEMO_SEARCH_SERVICE_ID)?.contractId === DEMO_CONTRACT_ID
  ) {
    store.serviceSettings.create(tenant, DEMO_SERVICE_SETTING, 0, now, DEMO_SERVICE_SETTING_ID);
  }
  if (pinnedKey !== undefined && !store.apiKeys.findActiveByHash(hashApiKey(pinnedKey))) {
    if (store.tenants.getServiceGroup(DEMO_CONTRACT_ID, DEMO_SERVICEGROUP_ID)) {
      store.apiKeys.insert(tenant, hashApiKey(pinnedKey), apiKeyPrefix(pinnedKey), 'pinned demo key', now);
    }
  }
  return undefined;
}
