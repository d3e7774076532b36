import { parseArgs } from 'node:util';
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

export const ADMIN_USAGE = `usage: kumo admin <resource> <action> [options]
  contract create --name NAME            create a contract; prints its id
  contract list
  servicegroup create --contract ID --name NAME
  servicegroup list [--contract ID]
  key create --contract ID --servicegroup ID [--label TEXT]   prints the key once
  key list [--contract ID]
  key revoke KEY_ID
  searchservice create --contract ID --servicegroup ID --name NAME [--config FILE]
  searchservice list [--contract ID]
  searchservice show ID                  prints the configuration as JSON
  searchservice configure ID --config FILE
      FILE is JSON: {"categories": [{"name", "url_pattern"}], "drilldowns": [{"url_pattern",
      "path": "labels\\tjoined\\tby tab, $1 = capture group"}], "allowed_origins": ["https://..."],
      "weights": {"title", "headings", "description", "body", "url"}}
  setting create --contract ID --servicegroup ID --config FILE [--name NAME]
  setting list [--contract ID]
  setting show ID                        prints the setting, schedule, service_id and next run as JSON
  setting update ID --config FILE [--name NAME]    replaces setting, schedule and service_id
  setting delete ID                      also cancels its pending or running run
      FILE is JSON: {"setting": {instant crawler setting}, "schedule": {"interval": 0..4 (off, hourly,
      daily, weekly, monthly), "min", "hour", "day_of_week": 0..6 (Sun..Sat), "day_of_month"},
      "service_id": search service id or null}
  setting run ID                         queue a run now (kumo serve starts it)
  webhook create --contract ID --servicegroup ID --url URL --secret SECRET   (16..256 chars)
  webhook list [--contract ID]
  webhook delete ID
  webhook deliveries ID [--limit N]      newest first, at most N (default 50)
  webhook replay DELIVERY_ID             deliver again (kumo serve sends it)
Works on the store in KUMO_DATA_DIR, also while kumo serve runs, which picks changes up from the store.`;

type Output = (line: string) => void;

/** `kumo admin`: tenants, API keys, search services, crawl service settings and webhooks. */
export async function adminCommand(
  argv: string[],
  config: KumoConfig,
  print: Output = (line) => process.stdout.write(`${line}\n`),
): Promise<number> {
  const [resource, action, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      contract: { type: 'string' },
      servicegroup: { type: 'string' },
      label: { type: 'string' },
      config: { type: 'string' },
      url: { type: 'string' },
      secret: { type: 'string' },
      limit: { type: 'string' },
    },
  });
  const paths = dataDirOfServe(config);
  const store = openSqliteServiceStore(paths.database, {
    secretKey: loadSecretKey(config.secretKey, paths.secretKey),
  });
  try {
    const handler = HANDLERS[`${resource ?? ''} ${action ?? ''}`];
    if (!handler) throw new UsageError(ADMIN_USAGE);
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
  if (value === undefined) throw new UsageError(`--${option} ID is required`);
  if (!/^[1-9]\d*$/.test(value))
    throw new UsageError(`--${option}: expected a positive integer id, got "${value}"`);
  return Number(value);
}

export function requiredName(value: string | undefined): string {
  if (value === undefined || value.trim() === '') throw new UsageError('--name NAME is required');
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
