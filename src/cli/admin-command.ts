import type { KumoConfig } from '../config/config.js';
import { apiKeyPrefix, generateApiKey, hashApiKey } from '../service/api-key-codec.js';
import { loadSecretKey } from '../service/data-dir.js';
import type { ServiceStore } from '../store/service-store.js';
import { openSqliteServiceStore } from '../store/sqlite/open-service-store.js';
import { systemClock } from '../util/clock.js';
import { formatApiTimestamp } from '../util/timestamps.js';
import { dataDirOfServe } from './data-dir-check.js';
import { SEARCH_SERVICE_HANDLERS } from './admin-search-services.js';
import { SERVICE_SETTING_HANDLERS } from './admin-service-settings.js';
import { WEBHOOK_HANDLERS } from './admin-webhooks.js';
import { UsageError } from './usage-error.js';

type Output = (line: string) => void;

/**
 * `kumo admin <resource> <action>`: tenants, API keys, search services, crawl service settings
 * and webhooks (`action` is e.g. "key create"; admin-program.ts declares each one's options).
 */
export async function adminCommand(
  action: string,
  values: AdminContext['values'],
  positionals: string[],
  config: KumoConfig,
  print: Output = (line) => process.stdout.write(`${line}\n`),
): Promise<number> {
  const paths = dataDirOfServe(config);
  const store = openSqliteServiceStore(paths.database, {
    secretKey: loadSecretKey(config.secretKey, paths.secretKey),
  });
  try {
    const handler = HANDLERS[action];
    if (!handler) throw new Error(`no handler for kumo admin ${action}`);
    handler({ store, values, positionals, print, timezone: config.timezone });
    return 0;
  } finally {
    store.close();
  }
}

export interface AdminContext {
  store: ServiceStore;
  values: {
    name?: string;
    contract?: string;
    servicegroup?: string;
    label?: string;
    config?: string;
    url?: string;
    secret?: string;
    limit?: string;
  };
  positionals: string[];
  print: Output;
  timezone: string;
}

export function requiredId(value: string | undefined, option: string): number {
  if (value === undefined) throw new UsageError(`--${option} ID is required`, true);
  if (!/^[1-9]\d*$/.test(value))
    throw new UsageError(`--${option}: expected a positive integer id, got "${value}"`);
  return Number(value);
}

export function requiredName(value: string | undefined): string {
  if (value === undefined || value.trim() === '') throw new UsageError('--name NAME is required', true);
  return value.trim();
}

const HANDLERS: Record<string, (context: AdminContext) => void> = {
  'contract create': ({ store, values, print }) => {
    const contract = store.tenants.createContract(requiredName(values.name), systemClock.nowMicros());
    print(`contract ${contract.id} created (${contract.name})`);
  },
  'contract list': ({ store, print, timezone }) => {
    print('id\tname\tcreated');
    for (const c of store.tenants.listContracts())
      print(`${c.id}\t${c.name}\t${formatApiTimestamp(c.createdMicros, timezone)}`);
  },
  'servicegroup create': ({ store, values, print }) => {
    const contractId = requiredId(values.contract, 'contract');
    if (!store.tenants.getContract(contractId)) throw new UsageError(`--contract: no contract ${contractId}`);
    const group = store.tenants.createServiceGroup(
      contractId,
      requiredName(values.name),
      systemClock.nowMicros(),
    );
    print(`service group ${group.id} created in contract ${contractId} (${group.name})`);
  },
  'servicegroup list': ({ store, values, print }) => {
    const contractId = values.contract === undefined ? undefined : requiredId(values.contract, 'contract');
    print('id\tcontract\tname');
    for (const g of store.tenants.listServiceGroups(contractId)) print(`${g.id}\t${g.contractId}\t${g.name}`);
  },
  'key create': ({ store, values, print }) => {
    const contractId = requiredId(values.contract, 'contract');
    const servicegroupId = requiredId(values.servicegroup, 'servicegroup');
    if (!store.tenants.getServiceGroup(contractId, servicegroupId)) {
      throw new UsageError(`no service group ${servicegroupId} in contract ${contractId}`);
    }
    const key = generateApiKey();
    const record = store.apiKeys.insert(
      { contractId, servicegroupId },
      hashApiKey(key),
      apiKeyPrefix(key),
      values.label ?? '',
      systemClock.nowMicros(),
    );
    print(`key ${record.id} created for contract ${contractId}, service group ${servicegroupId}`);
    print(`API key (shown once, keep it): ${key}`);
  },
  'key list': ({ store, values, print, timezone }) => {
    const contractId = values.contract === undefined ? undefined : requiredId(values.contract, 'contract');
    print('id\tcontract\tservicegroup\tprefix\tlabel\tcreated\trevoked');
    for (const k of store.apiKeys.list(contractId)) {
      const revoked = k.revokedMicros === null ? '-' : formatApiTimestamp(k.revokedMicros, timezone);
      print(
        `${k.id}\t${k.contractId}\t${k.servicegroupId}\t${k.prefix}…\t${k.label}\t${formatApiTimestamp(k.createdMicros, timezone)}\t${revoked}`,
      );
    }
  },
  ...SEARCH_SERVICE_HANDLERS,
  ...SERVICE_SETTING_HANDLERS,
  ...WEBHOOK_HANDLERS,
  'key revoke': ({ store, positionals, print }) => {
    const id = requiredId(positionals[0], 'key id (positional)');
    if (!store.apiKeys.revoke(id, systemClock.nowMicros())) throw new UsageError(`no active key ${id}`);
    print(`key ${id} revoked`);
  },
};
