import type { RecordStore } from '../store/index.js';
import type { Clock } from '../util/index.js';
import { apiKeyPrefix, generateApiKey, hashApiKey, type Actor, type Management } from '../usecases/index.js';

export const DEMO_CONTRACT_ID = 1;
export const DEMO_SERVICEGROUP_ID = 1;
export const DEMO_SEARCH_SERVICE_ID = 1;
export const DEMO_SERVICE_SETTING_ID = 1;

const DEMO_TENANT = { contractId: DEMO_CONTRACT_ID, servicegroupId: DEMO_SERVICEGROUP_ID };

/** The demo crawl service setting: a placeholder site, schedule disabled, feeding search service 1. */
const DEMO_SERVICE_SETTING = {
  name: 'demo',
  setting: { seed_urls: ['https://www.example.com/'] },
  schedule: { interval: 0 },
  searchServiceId: DEMO_SEARCH_SERVICE_ID,
};

/** Who made the demo tenant, in the audit log: the operator, at `kumo serve`'s first start. */
export const FIRST_START: Actor = { kind: 'operator', via: 'first-start' };

/**
 * First start with an empty store creates the demo tenant (contract 1, service group 1, crawl
 * service setting 1, search service 1) through the management operations, as an operator would,
 * so the audit log has it; without its API key: that one is issued by issueDemoKey once the
 * server listens (docs/operations.md, First start). A pinned key (KUMO_BOOTSTRAP_API_KEY) not yet
 * known is added here on later starts, so it works from the first request.
 */
export async function bootstrapDemoTenant(
  store: RecordStore,
  management: Management,
  clock: Clock,
  pinnedKey: string | undefined,
): Promise<void> {
  const now = clock.nowMicros();
  if ((await store.tenants.listContracts()).length === 0) {
    // An empty store numbers them all 1 (DEMO_*), the ids the documentation gives.
    const contract = await management.tenants.createContract(FIRST_START, { name: 'demo' });
    const group = await management.tenants.createServiceGroup(FIRST_START, contract.id, { name: 'demo' });
    const tenant = { contractId: contract.id, servicegroupId: group.id };
    const search = await management.searchServices.create(FIRST_START, tenant, { name: 'demo' });
    await management.serviceSettings.create(FIRST_START, tenant, {
      ...DEMO_SERVICE_SETTING,
      searchServiceId: search.id,
    });
    return;
  }
  // A data directory made before search services existed gains the demo search service.
  if (
    (await store.searchServices.get(DEMO_SEARCH_SERVICE_ID)) === undefined &&
    (await store.tenants.getServiceGroup(DEMO_CONTRACT_ID, DEMO_SERVICEGROUP_ID))
  ) {
    await store.searchServices.create(DEMO_TENANT, 'demo', {}, now, DEMO_SEARCH_SERVICE_ID);
  }
  // ... and the demo crawl service setting, in one made before scheduled crawls existed.
  if (
    !(await store.serviceSettings.known(DEMO_SERVICE_SETTING_ID)) &&
    (await store.serviceSettings.list()).length === 0 &&
    (await store.searchServices.get(DEMO_SEARCH_SERVICE_ID))?.contractId === DEMO_CONTRACT_ID
  ) {
    await store.serviceSettings.create(DEMO_TENANT, DEMO_SERVICE_SETTING, 0, now, DEMO_SERVICE_SETTING_ID);
  }
  if (
    pinnedKey !== undefined &&
    (await demoKeyIssued(store)) &&
    !(await store.apiKeys.findActiveByHash(hashApiKey(pinnedKey)))
  ) {
    await store.apiKeys.insert(
      DEMO_TENANT,
      hashApiKey(pinnedKey),
      apiKeyPrefix(pinnedKey),
      'pinned demo key',
      now,
    );
  }
}

/**
 * The demo tenant's first API key, called once the server listens: a start that fails before
 * (port in use) leaves the demo service group without a key, and the next start that listens
 * issues it. Returns the key it issued (the pinned one when KUMO_BOOTSTRAP_API_KEY is set, which
 * the caller does not print), or undefined when the demo service group already had a key, revoked
 * ones included, or does not exist.
 */
export async function issueDemoKey(
  store: RecordStore,
  clock: Clock,
  pinnedKey: string | undefined,
): Promise<string | undefined> {
  if (
    !(await store.tenants.getServiceGroup(DEMO_CONTRACT_ID, DEMO_SERVICEGROUP_ID)) ||
    (await demoKeyIssued(store))
  )
    return undefined;
  const key = pinnedKey ?? generateApiKey();
  await store.apiKeys.insert(DEMO_TENANT, hashApiKey(key), apiKeyPrefix(key), 'demo key', clock.nowMicros());
  return key;
}

/** Whether the demo service group has ever had an API key (stored keys are revoked, never deleted). */
async function demoKeyIssued(store: RecordStore): Promise<boolean> {
  return (await store.apiKeys.list(DEMO_CONTRACT_ID)).some(
    (key) => key.servicegroupId === DEMO_SERVICEGROUP_ID,
  );
}
