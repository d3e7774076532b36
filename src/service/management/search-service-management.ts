import { InvalidInputError } from '../../domain/field-error.js';
import { checkSearchServiceConfig, type SearchServiceConfig } from '../../domain/search-service-config.js';
import type { SearchServiceRecord, TenantRef } from '../../store/service-store.js';
import { type Actor, ManagementOperations } from './management-context.js';
import { NotFoundError } from './management-errors.js';
import { isGroupScope, reaches, type Scope, withinText } from './management-scope.js';
import { requiredName } from './input-rules.js';

/**
 * Search services and their configuration (category and drill-down rules, allowed origins,
 * weights, synonyms, content selectors). The configuration has the shape of
 * SearchServiceConfigSchema (checked by the caller's parser); the rules the schema cannot
 * express are checked here. A search service is never renamed or deleted.
 */
export class SearchServiceManagement extends ManagementOperations {
  list(scope: Scope): SearchServiceRecord[] {
    this.enter(scope);
    const services = this.store.searchServices.list(isGroupScope(scope) ? scope : undefined);
    return services.filter((service) => reaches(scope, service));
  }

  /** The search service within the scope, or NotFoundError. */
  get(scope: Scope, id: number): SearchServiceRecord {
    this.enter(scope);
    const service = this.store.searchServices.get(id);
    if (!service || !reaches(scope, service)) {
      throw new NotFoundError('search service', id, `no search service ${id}${withinText(scope)}`);
    }
    return service;
  }

  create(
    actor: Actor,
    tenant: TenantRef,
    input: { name: string; config?: SearchServiceConfig },
  ): SearchServiceRecord {
    this.mayChange(actor, tenant, 'search service');
    this.enter(tenant);
    const name = requiredName(input.name);
    const config = checkedConfig(input.config ?? {});
    const now = this.now();
    const created = this.store.searchServices.create(tenant, name, config, now);
    this.changed(actor, 'create', 'search service', created, now);
    return created;
  }

  /** Replaces the configuration; it applies to the next search, without a restart. */
  configure(actor: Actor, scope: Scope, id: number, config: SearchServiceConfig): SearchServiceRecord {
    this.mayChange(actor, scope, 'search service');
    const service = this.get(scope, id);
    const checked = checkedConfig(config);
    const now = this.now();
    if (!this.store.searchServices.updateConfig(service.id, checked, now)) {
      throw new NotFoundError('search service', id, `no search service ${id}${withinText(scope)}`);
    }
    this.changed(actor, 'update', 'search service', service, now);
    return this.store.searchServices.get(service.id)!;
  }
}

/** The rules the schema cannot express: patterns compile, labels are not empty, origins are origins. */
function checkedConfig(config: SearchServiceConfig): SearchServiceConfig {
  const errors = checkSearchServiceConfig(config, 'config.');
  if (errors.length > 0) throw new InvalidInputError(errors);
  return config;
}
