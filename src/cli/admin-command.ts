import type { KumoConfig } from '../config/index.js';
import { EVERYWHERE, Management, ScheduledCrawlService, TenantWork } from '../usecases/index.js';
import { openRecordStore } from '../startup/index.js';
import { systemClock } from '../util/index.js';
import { STORE_POLLED } from '../worker/index.js';
import { adminUsageError } from './admin-failures.js';
import { SEARCH_SERVICE_HANDLERS } from './admin-search-services.js';
import { SERVICE_SETTING_HANDLERS } from './admin-service-settings.js';
import { USER_HANDLERS } from './admin-users.js';
import { WEBHOOK_HANDLERS } from './admin-webhooks.js';
import { dataDirOfServe } from './data-dir-check.js';
import {
  type AdminContext,
  CLI_ACTOR,
  listScope,
  printedTime,
  requiredId,
  requiredName,
  requiredTenant,
  type AdminHandler,
} from './admin-options.js';

/**
 * `kumo admin <resource> <action>`: tenants, API keys, search services, crawl service settings
 * and webhooks (`action` is e.g. "key create"; admin-program.ts declares each one's options).
 * Each handler parses its options, calls the management operation and prints the result.
 */
export async function adminCommand(
  action: string,
  values: AdminContext['values'],
  positionals: string[],
  config: KumoConfig,
  print: AdminContext['print'] = (line) => process.stdout.write(`${line}\n`),
): Promise<number> {
  const handler = HANDLERS[action];
  if (!handler) throw new Error(`no handler for kumo admin ${action}`);
  const paths = dataDirOfServe(config);
  const store = await openRecordStore(config, paths);
  const tenantWork = new TenantWork();
  try {
    const { timezone } = config;
    // The CLI starts no workers: `kumo serve` polls the store for pending runs and cancel requests.
    const scheduledCrawl = new ScheduledCrawlService(store, STORE_POLLED, systemClock, timezone);
    const management = new Management({ store, scheduledCrawl, tenantWork, clock: systemClock, timezone });
    await handler({ management, values, positionals, print, timezone, publicUrl: config.publicUrl });
    return 0;
  } catch (error) {
    throw adminUsageError(error, action.split(' ')[0]!);
  } finally {
    await Promise.all([store.close(), tenantWork.close()]);
  }
}

const HANDLERS: Record<string, AdminHandler> = {
  'contract create': async ({ management, values, print }) => {
    const contract = await management.tenants.createContract(CLI_ACTOR, { name: requiredName(values.name) });
    print(`contract ${contract.id} created (${contract.name})`);
  },
  'contract list': async ({ management, print, timezone }) => {
    print('id\tname\tcreated');
    for (const c of await management.tenants.listContracts())
      print(`${c.id}\t${c.name}\t${printedTime(c.createdMicros, timezone)}`);
  },
  'servicegroup create': async ({ management, values, print }) => {
    const contractId = requiredId(values.contract, 'contract');
    const name = requiredName(values.name);
    const group = await management.tenants.createServiceGroup(CLI_ACTOR, contractId, { name });
    print(`service group ${group.id} created in contract ${contractId} (${group.name})`);
  },
  'servicegroup list': async ({ management, values, print }) => {
    const { contractId } = listScope(values);
    print('id\tcontract\tname');
    for (const g of await management.tenants.listServiceGroups(contractId))
      print(`${g.id}\t${g.contractId}\t${g.name}`);
  },
  'key create': async ({ management, values, print }) => {
    const tenant = requiredTenant(values);
    const { record, apiKey } = await management.apiKeys.create(CLI_ACTOR, tenant, { label: values.label });
    print(
      `key ${record.id} created for contract ${tenant.contractId}, service group ${tenant.servicegroupId}`,
    );
    print(`API key (shown once, keep it): ${apiKey}`);
  },
  'key list': async ({ management, values, print, timezone }) => {
    print('id\tcontract\tservicegroup\tprefix\tlabel\tcreated\trevoked');
    for (const k of await management.apiKeys.list(listScope(values))) {
      print(
        `${k.id}\t${k.contractId}\t${k.servicegroupId}\t${k.prefix}…\t${k.label}\t` +
          `${printedTime(k.createdMicros, timezone)}\t${printedTime(k.revokedMicros, timezone)}`,
      );
    }
  },
  'key revoke': async ({ management, positionals, print }) => {
    const id = requiredId(positionals[0], 'key id (positional)');
    await management.apiKeys.revoke(CLI_ACTOR, EVERYWHERE, id);
    print(`key ${id} revoked`);
  },
  ...SEARCH_SERVICE_HANDLERS,
  ...SERVICE_SETTING_HANDLERS,
  ...WEBHOOK_HANDLERS,
  ...USER_HANDLERS,
};
