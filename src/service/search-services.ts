import { statSync } from 'node:fs';
import { SearchIndex } from '../search/search-index.js';
import { FacetPool } from '../search/site/facet-pool.js';
import { type ActivitySource, MAX_TRACKED_QUERIES, SearchActivity } from '../search/site/search-activity.js';
import type { AnalyticsOptions } from '../search/site/search-analytics.js';
import type { SearchActivityStore, SearchAnalyticsReader } from '../store/search-activity-log.js';
import { SiteSearch } from '../search/site/site-search.js';
import type { SearchServiceRecord, SearchServiceStore, TenantRef } from '../store/service-store.js';
import type { Clock } from '../util/clock.js';
import { searchIndexFile } from '../config/data-paths.js';

/** Query and click counts are written this often. */
const FLUSH_INTERVAL_MS = 1000;

/** The index of a search service cannot be opened (written by another version, or damaged). */
export class SearchIndexUnavailableError extends Error {
  override name = 'SearchIndexUnavailableError';
}

export interface IndexStatus {
  documents: number;
  bytes: number;
  modifiedMicros: number;
}

export interface OpenSearchService {
  record: SearchServiceRecord;
  search: SiteSearch;
}

/**
 * The search services of `kumo serve`: each index is opened on first use and kept open; the
 * service's configuration is read from the store on every call (one indexed row), so a change
 * made by `kumo admin` applies to the next search without a restart.
 */
export class SearchServices {
  private readonly open = new Map<number, SiteSearch>();
  /** Services being opened (a shared log is read first): one opening per service. */
  private readonly opening = new Map<number, Promise<SiteSearch>>();
  private readonly flushTimer: NodeJS.Timeout;
  /** The flush of every service under way, if any: the timer starts none while one runs. */
  private flushing: Promise<void> | undefined;
  private closed = false;
  /** Facets of every service are computed in these threads, off the thread answering the API. */
  private readonly facetPool = new FacetPool();

  constructor(
    private readonly records: SearchServiceStore,
    private readonly dataDir: string,
    private readonly clock: Clock,
    private readonly onFlushError: (error: unknown) => void = () => undefined,
    /** Told when a service's facets are unavailable (its rules took too long on its URLs). */
    private readonly onWarning: (fields: { search_service_id: number }, message: string) => void = () =>
      undefined,
    /** The per-day search analytics: their days' time zone and how long they are kept. */
    private readonly analyticsOptions: AnalyticsOptions = { timezone: 'UTC', retentionDays: 90 },
    /** The query and click logs of a cluster's shared store; without it each index file keeps its own. */
    private readonly sharedActivity?: SearchActivityStore,
  ) {
    this.flushTimer = setInterval(() => {
      this.flushing ??= this.flush().finally(() => {
        this.flushing = undefined;
      });
    }, FLUSH_INTERVAL_MS);
    this.flushTimer.unref();
  }

  /** The search service at a tenant path, or undefined when there is none there. */
  async get(
    contractId: number,
    servicegroupId: number,
    serviceId: number,
  ): Promise<OpenSearchService | undefined> {
    const record = await this.records.get(serviceId);
    if (
      record === undefined ||
      record.contractId !== contractId ||
      record.servicegroupId !== servicegroupId
    ) {
      return undefined;
    }
    let search = this.open.get(serviceId);
    if (search === undefined) {
      let opening = this.opening.get(serviceId);
      if (opening === undefined) {
        opening = this.openService(serviceId, record).finally(() => this.opening.delete(serviceId));
        this.opening.set(serviceId, opening);
      }
      search = await opening;
    } else {
      search.configure(record.config);
    }
    return { record, search };
  }

  private async openService(serviceId: number, record: SearchServiceRecord): Promise<SiteSearch> {
    let source: ActivitySource | undefined;
    if (this.sharedActivity !== undefined) {
      const log = this.sharedActivity.forService(serviceId);
      source = { log, counts: await log.counts(MAX_TRACKED_QUERIES) };
      if (this.closed) throw new SearchIndexUnavailableError('the search services are closing');
    }
    let index: SearchIndex;
    try {
      index = new SearchIndex(searchIndexFile(this.dataDir, serviceId));
    } catch (error) {
      throw new SearchIndexUnavailableError(
        `the index of search service ${serviceId}: ${(error as Error).message}`,
      );
    }
    const search = new SiteSearch(
      index,
      record.config,
      new SearchActivity(index.store, this.clock, this.analyticsOptions, source),
      {
        name: `search service ${serviceId}`,
        facetPool: this.facetPool,
        warn: (message) => this.onWarning({ search_service_id: serviceId }, message),
      },
    );
    this.open.set(serviceId, search);
    return search;
  }

  /**
   * What the console shows of a service's index (docs/console.md, Site search): documents, the
   * bytes of its files and when they last changed; undefined when there is no such service.
   */
  async indexStatus(tenant: TenantRef, serviceId: number): Promise<IndexStatus | undefined> {
    const open = await this.get(tenant.contractId, tenant.servicegroupId, serviceId);
    if (open === undefined) return undefined;
    const files = this.indexFiles(serviceId);
    return {
      documents: open.search.index.documentCount,
      bytes: files.bytes,
      modifiedMicros: files.modifiedMicros,
    };
  }

  /** The bytes of a service's index files, without opening the index (the operator's usage). */
  indexFileBytes(serviceId: number): number {
    return this.indexFiles(serviceId).bytes;
  }

  /** The size and last change of a service's index file and its WAL (either may be missing). */
  private indexFiles(serviceId: number): { bytes: number; modifiedMicros: number } {
    const file = searchIndexFile(this.dataDir, serviceId);
    let bytes = 0;
    let modifiedMs = 0;
    for (const part of [file, `${file}-wal`]) {
      try {
        const info = statSync(part);
        bytes += info.size;
        modifiedMs = Math.max(modifiedMs, info.mtimeMs);
      } catch {
        // Not created yet, or no WAL file at the moment: nothing to add.
      }
    }
    return { bytes, modifiedMicros: Math.round(modifiedMs * 1000) };
  }

  /** The URLs of up to `limit` indexed documents of a service (the facet preview). */
  async documentUrls(tenant: TenantRef, serviceId: number, limit: number): Promise<string[]> {
    return (
      (await this.get(tenant.contractId, tenant.servicegroupId, serviceId))?.search.index.store.documentUrls(
        limit,
      ) ?? []
    );
  }

  /**
   * The per-day analytics of a service, with what this process counted so far written first (a
   * search made a moment ago is in them); undefined when there is no such service.
   */
  async analytics(tenant: TenantRef, serviceId: number): Promise<SearchAnalyticsReader | undefined> {
    const open = await this.get(tenant.contractId, tenant.servicegroupId, serviceId);
    if (open === undefined) return undefined;
    try {
      await open.search.activity.flush();
    } catch (error) {
      this.onFlushError(error);
    }
    return open.search.activity.analyticsLog;
  }

  /** Whether every open index answers (health check). */
  healthy(): boolean {
    try {
      return [...this.open.values()].every((search) => search.index.store.ping());
    } catch {
      return false;
    }
  }

  /** Writes what every open service counted; a failure is reported, and its counts kept for the next. */
  async flush(): Promise<void> {
    await Promise.all(
      [...this.open.values()].map((search) =>
        search.activity.flush().catch((error: unknown) => this.onFlushError(error)),
      ),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.flushTimer);
    await this.flushing;
    await this.flush();
    for (const search of this.open.values()) search.index.close();
    this.open.clear();
    void this.facetPool.close();
  }
}
