import { type FieldError, InvalidInputError } from '../../domain/index.js';
import type { SearchServiceConfig } from '../../domain/schemas.js';
import type { FacetPreview } from '../tenant-work/facet-preview.js';
import type { RunRecord, SearchServiceRecord, TenantRef } from '../../store/index.js';
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
  async list(scope: Scope): Promise<SearchServiceRecord[]> {
    await this.enter(scope);
    const services = await this.store.searchServices.list(isGroupScope(scope) ? scope : undefined);
    return services.filter((service) => reaches(scope, service));
  }

  /** The search service within the scope, or NotFoundError. */
  async get(scope: Scope, id: number): Promise<SearchServiceRecord> {
    await this.enter(scope);
    const service = await this.store.searchServices.get(id);
    if (!service || !reaches(scope, service)) {
      throw new NotFoundError('search service', id, `no search service ${id}${withinText(scope)}`);
    }
    return service;
  }

  async create(
    actor: Actor,
    tenant: TenantRef,
    input: { name: string; config?: SearchServiceConfig },
  ): Promise<SearchServiceRecord> {
    this.mayChange(actor, tenant, 'search service');
    await this.enter(tenant);
    const name = requiredName(input.name);
    const config = await this.checkedConfig(tenant, input.config ?? {});
    const now = this.now();
    const created = await this.store.searchServices.create(tenant, name, config, now);
    await this.changed(actor, 'create', 'search service', created, now);
    return created;
  }

  /** The index of the service: documents, size, last change and the last run that fed it. */
  async status(scope: TenantRef, id: number): Promise<SearchServiceStatus> {
    const service = await this.get(scope, id);
    const index = await this.deps.searchIndexes?.indexStatus(scope, service.id);
    const feeding = (await this.store.serviceSettings.list(scope)).filter(
      (setting) => setting.searchServiceId === service.id,
    );
    const lastRuns = await Promise.all(
      feeding.map((setting) =>
        this.store.runs.listRuns(scope, { serviceSettingId: setting.id, state: 'ended', limit: 1 }),
      ),
    );
    const lastFeed = lastRuns.flat().sort((a, b) => (b.endMicros ?? 0) - (a.endMicros ?? 0))[0];
    return {
      documents: index?.documents ?? 0,
      bytes: index?.bytes ?? 0,
      updatedMicros: index?.modifiedMicros ?? null,
      lastFeed,
    };
  }

  /**
   * What a configuration's category and drill-down rules make of the indexed pages, stored or
   * not (the console previews a draft); the configuration is checked as configure() would. Both
   * run in the tenant work threads, within their time limit (docs/security.md).
   */
  async facetPreview(scope: TenantRef, id: number, config: SearchServiceConfig): Promise<FacetPreview> {
    const service = await this.get(scope, id);
    const urls = (await this.deps.searchIndexes?.documentUrls(scope, service.id, PREVIEW_DOCUMENTS)) ?? [];
    const total = (await this.deps.searchIndexes?.indexStatus(scope, service.id))?.documents ?? urls.length;
    // The configuration is checked and its rules matched in one job of the tenant work threads.
    const previewed = await this.deps.tenantWork.facetPreview(
      service.contractId,
      config,
      'config.',
      urls,
      Math.max(total, urls.length),
    );
    throwIfAny(previewed.errors);
    return previewed.preview!;
  }

  /** Replaces the configuration; it applies to the next search, without a restart. */
  async configure(
    actor: Actor,
    scope: Scope,
    id: number,
    config: SearchServiceConfig,
  ): Promise<SearchServiceRecord> {
    this.mayChange(actor, scope, 'search service');
    const service = await this.get(scope, id);
    const checked = await this.checkedConfig(service, config);
    const now = this.now();
    if (!(await this.store.searchServices.updateConfig(service.id, checked, now))) {
      throw new NotFoundError('search service', id, `no search service ${id}${withinText(scope)}`);
    }
    // Searches here use the new configuration from the next one on.
    this.deps.searchIndexes?.forget(service.id);
    await this.changed(actor, 'update', 'search service', service, now);
    return (await this.store.searchServices.get(service.id))!;
  }

  /**
   * The field errors of a configuration by the rules the schema cannot express, storing nothing
   * (an API answer names them with the schema's: docs/api.md, Common rules).
   */
  async configErrors(scope: TenantRef, config: SearchServiceConfig): Promise<FieldError[]> {
    await this.enter(scope);
    return this.deps.tenantWork.searchConfigErrors(scope.contractId, config, 'config.');
  }

  /**
   * The rules the schema cannot express (patterns compile, labels are not empty, origins are
   * origins), checked in the tenant work threads of the contract.
   */
  private async checkedConfig(tenant: Pick<TenantRef, 'contractId'>, config: SearchServiceConfig) {
    throwIfAny(await this.deps.tenantWork.searchConfigErrors(tenant.contractId, config, 'config.'));
    return config;
  }
}

/** How many of an index's documents a facet preview reads, so a preview answers in well under a second. */
export const PREVIEW_DOCUMENTS = 5000;

/** A search service's index as the console shows it (docs/console.md, Site search). */
export interface SearchServiceStatus {
  documents: number;
  bytes: number;
  updatedMicros: number | null;
  /** The latest run that ended of a crawl setting feeding the service, if any. */
  lastFeed: RunRecord | undefined;
}

/** Throws InvalidInputError naming every field, when there are errors. */
function throwIfAny(errors: readonly FieldError[]): void {
  if (errors.length > 0) throw new InvalidInputError(errors);
}
