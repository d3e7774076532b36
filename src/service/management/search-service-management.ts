import { InvalidInputError } from '../../domain/field-error.js';
import { checkSearchServiceConfig, type SearchServiceConfig } from '../../domain/search-service-config.js';
import { categoriesOf, compileFacetRules, drilldownPathsOf } from '../../search/site/facet-rules.js';
import type { RunRecord, SearchServiceRecord, TenantRef } from '../../store/service-store.js';
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
    const config = checkedConfig(input.config ?? {});
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
   * not (the console previews a draft); the configuration is checked as configure() would.
   */
  async facetPreview(scope: TenantRef, id: number, config: SearchServiceConfig): Promise<FacetPreview> {
    const service = await this.get(scope, id);
    const checked = checkedConfig(config);
    const urls = (await this.deps.searchIndexes?.documentUrls(scope, service.id, PREVIEW_DOCUMENTS)) ?? [];
    const total = (await this.deps.searchIndexes?.indexStatus(scope, service.id))?.documents ?? urls.length;
    return facetPreviewOf(urls, Math.max(total, urls.length), checked);
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
    const checked = checkedConfig(config);
    const now = this.now();
    if (!(await this.store.searchServices.updateConfig(service.id, checked, now))) {
      throw new NotFoundError('search service', id, `no search service ${id}${withinText(scope)}`);
    }
    // Searches here use the new configuration from the next one on.
    this.deps.searchIndexes?.forget(service.id);
    await this.changed(actor, 'update', 'search service', service, now);
    return (await this.store.searchServices.get(service.id))!;
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

/** The categories and drill-down tree a configuration gives the indexed pages. */
export interface FacetPreview {
  /** Documents read (at most PREVIEW_DOCUMENTS) and in the index. */
  documents: number;
  ofDocuments: number;
  categories: { name: string; count: number }[];
  uncategorized: number;
  drilldown: DrilldownNode[];
}

export interface DrilldownNode {
  label: string;
  count: number;
  children: DrilldownNode[];
}

function facetPreviewOf(urls: readonly string[], total: number, config: SearchServiceConfig): FacetPreview {
  const rules = compileFacetRules(config);
  const categoryCounts = rules.categories.map(() => 0);
  let uncategorized = 0;
  const root: DrilldownNode = { label: '', count: 0, children: [] };
  for (const url of urls) {
    const categories = categoriesOf(url, rules);
    if (categories.length === 0) uncategorized += 1;
    for (const index of categories) categoryCounts[index]! += 1;
    // A page counts once per node even when two of its paths pass through it.
    const seen = new Set<DrilldownNode>();
    for (const path of drilldownPathsOf(url, rules)) {
      let node = root;
      for (const label of path.split('\t')) {
        let child = node.children.find((candidate) => candidate.label === label);
        if (child === undefined) {
          child = { label, count: 0, children: [] };
          node.children.push(child);
        }
        if (!seen.has(child)) {
          child.count += 1;
          seen.add(child);
        }
        node = child;
      }
    }
  }
  const sorted = (nodes: DrilldownNode[]): DrilldownNode[] =>
    nodes
      .sort((a, b) => b.count - a.count || a.label.localeCompare(b.label))
      .map((node) => ({ ...node, children: sorted(node.children) }));
  return {
    documents: urls.length,
    ofDocuments: total,
    categories: rules.categories.map((category, index) => ({
      name: category.name,
      count: categoryCounts[index]!,
    })),
    uncategorized,
    drilldown: sorted(root.children),
  };
}

/** The rules the schema cannot express: patterns compile, labels are not empty, origins are origins. */
function checkedConfig(config: SearchServiceConfig): SearchServiceConfig {
  const errors = checkSearchServiceConfig(config, 'config.');
  if (errors.length > 0) throw new InvalidInputError(errors);
  return config;
}
