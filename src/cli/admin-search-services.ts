import { readFileSync } from 'node:fs';
import { type SearchServiceConfig, validateSearchServiceConfig } from '../domain/schemas.js';
import { EVERYWHERE } from '../usecases/index.js';
import {
  CLI_ACTOR,
  listScope,
  requiredId,
  requiredName,
  requiredTenant,
  type AdminHandler,
} from './admin-options.js';
import { UsageError } from './usage-error.js';

/** `kumo admin searchservice ...`: search services and their rules (categories, drill-down, origins, weights). */
export const SEARCH_SERVICE_HANDLERS: Record<string, AdminHandler> = {
  'searchservice create': async ({ management, values, print }) => {
    const tenant = requiredTenant(values);
    const config = values.config === undefined ? {} : readConfig(values.config);
    const name = requiredName(values.name);
    const created = await management.searchServices.create(CLI_ACTOR, tenant, { name, config });
    print(
      `search service ${created.id} created in contract ${tenant.contractId}, service group ${tenant.servicegroupId}`,
    );
  },
  'searchservice list': async ({ management, values, print }) => {
    print('id\tcontract\tservicegroup\tname\tcategories\tdrilldowns\torigins');
    for (const service of await management.searchServices.list(listScope(values))) {
      const { categories = [], drilldowns = [], allowed_origins: origins = [] } = service.config;
      print(
        `${service.id}\t${service.contractId}\t${service.servicegroupId}\t${service.name}\t` +
          `${categories.length}\t${drilldowns.length}\t${origins.length}`,
      );
    }
  },
  'searchservice show': async ({ management, positionals, print }) => {
    const id = requiredId(positionals[0], 'search service id (positional)');
    print(JSON.stringify((await management.searchServices.get(EVERYWHERE, id)).config, null, 2));
  },
  'searchservice configure': async ({ management, values, positionals, print }) => {
    const id = requiredId(positionals[0], 'search service id (positional)');
    if (values.config === undefined) throw new UsageError('--config FILE is required', true);
    await management.searchServices.configure(CLI_ACTOR, EVERYWHERE, id, readConfig(values.config));
    print(`search service ${id} configured`);
  },
};

/** A configuration file, validated with the schema the management API uses. */
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
