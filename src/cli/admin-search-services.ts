import { readFileSync } from 'node:fs';
import { type SearchServiceConfig, validateSearchServiceConfig } from '../domain/search-service-config.js';
import { systemClock } from '../util/clock.js';
import { type AdminContext, requiredId, requiredName } from './admin-command.js';
import { UsageError } from './usage-error.js';

/** `kumo admin searchservice ...`: search services and their rules (categories, drill-down, origins, weights). */
export const SEARCH_SERVICE_HANDLERS: Record<string, (context: AdminContext) => void> = {
  'searchservice create': ({ store, values, print }) => {
    const contractId = requiredId(values.contract, 'contract');
    const servicegroupId = requiredId(values.servicegroup, 'servicegroup');
    if (!store.tenants.getServiceGroup(contractId, servicegroupId)) {
      throw new UsageError(`no service group ${servicegroupId} in contract ${contractId}`);
    }
    const config = values.config === undefined ? {} : readConfig(values.config);
    const record = store.searchServices.create(
      { contractId, servicegroupId },
      requiredName(values.name),
      config,
      systemClock.nowMicros(),
    );
    print(`search service ${record.id} created in contract ${contractId}, service group ${servicegroupId}`);
  },
  'searchservice list': ({ store, values, print }) => {
    const contractId = values.contract === undefined ? undefined : requiredId(values.contract, 'contract');
    print('id\tcontract\tservicegroup\tname\tcategories\tdrilldowns\torigins');
    for (const service of store.searchServices.list()) {
      if (contractId !== undefined && service.contractId !== contractId) continue;
      const { categories = [], drilldowns = [], allowed_origins: origins = [] } = service.config;
      print(
        `${service.id}\t${service.contractId}\t${service.servicegroupId}\t${service.name}\t` +
          `${categories.length}\t${drilldowns.length}\t${origins.length}`,
      );
    }
  },
  'searchservice show': ({ store, positionals, print }) => {
    const id = requiredId(positionals[0], 'search service id (positional)');
    const service = store.searchServices.get(id);
    if (service === undefined) throw new UsageError(`no search service ${id}`);
    print(JSON.stringify(service.config, null, 2));
  },
  'searchservice configure': ({ store, values, positionals, print }) => {
    const id = requiredId(positionals[0], 'search service id (positional)');
    if (values.config === undefined) throw new UsageError('--config FILE is required', true);
    const config = readConfig(values.config);
    if (!store.searchServices.updateConfig(id, config, systemClock.nowMicros())) {
      throw new UsageError(`no search service ${id}`);
    }
    print(`search service ${id} configured`);
  },
};

/** A configuration file, validated with the schema the management API will use. */
function readConfig(file: string): SearchServiceConfig {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--config: cannot read ${file} as JSON: ${(error as Error).message}`);
  }
  const errors = validateSearchServiceConfig(parsed);
  if (errors.length > 0) {
    throw new UsageError(`--config: ${errors.map((error) => `${error.field}: ${error.reason}`).join('; ')}`);
  }
  return parsed as SearchServiceConfig;
}
