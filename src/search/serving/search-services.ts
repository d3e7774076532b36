import { statSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_FOLDER_MODE, sleep, Turns, type Clock } from '../../util/index.js';
import type { GenerationCache, LocalGeneration } from './generation-cache.js';
import { MANAGEMENT_USE_MS, type OpenServiceLimits, servicesToClose } from './open-service-limits.js';
import type {
  SearchGenerationStore,
  SearchActivityStore,
  SearchAnalyticsReader,
  SearchServiceRecord,
  SearchServiceStore,
  TenantRef,
} from '../../store/index.js';
import type { SearchIndex } from '../search-index.js';
import { FacetPool } from '../site/facet-pool.js';
import { defaultHitThreads, HitPagePool } from '../site/hit-page-pool.js';
import type { ActivitySource } from '../site/search-activity.js';
import type { AnalyticsOptions } from '../site/search-analytics.js';
import type { SiteSearch } from '../site/site-search.js';
import type * as SearchEngine from './search-engine.js';
import { searchIndexFile } from '../../config/index.js';

/** Query and click counts are written this often. */
const FLUSH_INTERVAL_MS = 1000;
/** A generation no longer served is closed this long after the switch, once searches on it are done. */
const RETIRED_CLOSE_MS = 30_000;
/** How soon a node behind on a service (taking in its newest generation failed) tries again. */
const BEHIND_RETRY_MS = 30_000;

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
 * How a process uses published generations (docs/design/scale-out.md, Search nodes): a search node
 * `follow`s them (serves the newest, switches when told); the sole server of a database serves its
 * data directory's indexes, which it writes, and `restore`s one from the newest generation when
 * the directory's copy is older (a new machine, a lost disk).
 */
export interface PublishedGenerations {
  store: SearchGenerationStore;
  cache: GenerationCache;
  mode: 'follow' | 'restore';
}

export interface SearchServicesOptions {
  /** Told when writing the query and click counts failed (they are kept for the next flush). */
  onFlushError?: (error: unknown) => void;
  /** Told when a service's facets are unavailable, or a new generation could not be taken in. */
  onWarning?: (fields: { search_service_id: number }, message: string) => void;
  /** The per-day search analytics: their days' time zone and how long they are kept. */
  analytics?: AnalyticsOptions;
  /** The query and click logs of a cluster's shared store; without it each index file keeps its own. */
  sharedActivity?: SearchActivityStore;
  /** Published generations of a cluster, followed or restored from. */
  generations?: PublishedGenerations;
  /** How many services stay open, and how long an unused one does (KUMO_SEARCH_OPEN_SERVICES, KUMO_SEARCH_IDLE_SECONDS). */
  limits?: OpenServiceLimits;
}

const DEFAULT_LIMITS: OpenServiceLimits = { maxOpen: 256, idleMs: 600_000 };
/** The longest wait between a service's idle time running out and its closing. */
const IDLE_CHECK_MAX_MS = 10_000;

/** A service on its way out, until its counts are written and its index closed. */
interface ClosingService {
  served: Served;
  /** Taken back into use before its index was closed: it is not closed. */
  revived: boolean;
  done: Promise<void>;
}

/** An open service: what answers its searches, and the file it was opened on. */
interface Served {
  search: SiteSearch;
  /** The configuration it was last given (a newer generation starts with it). */
  config: SearchServiceRecord['config'];
  file: string;
  generation: number;
  /** When it was last asked for (performance.now()). */
  lastUsedMs: number;
  /** Feeds writing its index (SearchServices.hold), and lookups not yet used. */
  holds: number;
  /** When a management call last read it (performance.now()). */
  managedMs: number;
}

/**
 * Holds a service until the callbacks and promise reactions of this turn of the event loop have
 * run: a search started from a lookup is under way by then (SiteSearch.searching) and keeps the
 * service open itself.
 */
function holdThroughThisTurn(served: Served): void {
  served.holds += 1;
  setImmediate(() => (served.holds -= 1));
}

/**
 * How long a search service's record is reused by the searches that need it: a configuration
 * changed through another process (`kumo admin`, another node) applies within this time, one
 * changed through this process's management API at once (SearchServices.forget).
 */
const RECORD_REUSE_MS = 1000;

/**
 * The search services of `kumo serve`: each index is opened on first use and closed once unused
 * for a while, or to make room for another (open-service-limits.ts); the
 * service's configuration is read from the store on every call (one indexed row), so a change
 * made by `kumo admin` applies to the next search without a restart. In a cluster each service is
 * served from its newest published generation, and switched to the next one when told of it: a
 * search runs on one generation from start to end.
 */
export class SearchServices {
  /** Service records read lately, reused for RECORD_REUSE_MS (every search needs its service's). */
  private readonly recentRecords = new Map<number, { record: SearchServiceRecord; readAtMs: number }>();
  private readonly open = new Map<number, Served>();
  /** Services being opened (a shared log is read first): one opening per service. */
  private readonly opening = new Map<number, Promise<Served>>();
  /** Per service, the switch to a newer generation under way: one at a time. */
  private readonly switching = new Turns<number>();
  /**
   * On a search node, the generation copy each closed service was served from: removed when the
   * service opens again on a newer one (the copy it closed on stays the cache's until then).
   */
  private readonly closedCopies = new Map<number, string>();
  /**
   * On a search node, services served from an older generation because taking in the newest
   * failed: why, and the timer of the next try.
   */
  private readonly behind = new Map<number, { reason: string; retry: NodeJS.Timeout }>();
  /**
   * Services being closed (idle, or making room), until what their searches counted is written:
   * a use meanwhile takes the same instance back (`revived`), and `close` waits for the rest.
   */
  private readonly closing = new Map<number, ClosingService>();
  private readonly idleTimer: NodeJS.Timeout;
  private readonly limits: OpenServiceLimits;
  /** Generations no longer served, closed a while after the switch. */
  private readonly retiring = new Map<NodeJS.Timeout, Served>();
  private listening: { close(): Promise<void> } | undefined;
  private readonly flushTimer: NodeJS.Timeout;
  /** The flush of every service under way, if any: the timer starts none while one runs. */
  private flushing: Promise<void> | undefined;
  private closed = false;
  /** Facets of every service are computed in these threads, off the thread answering the API. */
  private readonly facetPool = new FacetPool();
  /**
   * Result pages are cut in these threads, so searches use every core (none on a machine of one
   * core: the API's thread cuts them).
   */
  private readonly hitPool = defaultHitThreads() > 0 ? new HitPagePool() : undefined;
  /** The search engine (search-engine.ts), imported with the first service opened. */
  private engine: Promise<typeof SearchEngine> | undefined;

  private readonly onFlushError: (error: unknown) => void;
  private readonly onWarning: (fields: { search_service_id: number }, message: string) => void;
  private readonly analyticsOptions: AnalyticsOptions;

  constructor(
    private readonly records: SearchServiceStore,
    private readonly dataDir: string,
    private readonly clock: Clock,
    private readonly options: SearchServicesOptions = {},
  ) {
    this.onFlushError = options.onFlushError ?? (() => undefined);
    this.onWarning = options.onWarning ?? (() => undefined);
    this.analyticsOptions = options.analytics ?? { timezone: 'UTC', retentionDays: 90 };
    this.flushTimer = setInterval(() => {
      this.flushing ??= this.flush().finally(() => {
        this.flushing = undefined;
      });
    }, FLUSH_INTERVAL_MS);
    this.flushTimer.unref();
    this.limits = options.limits ?? DEFAULT_LIMITS;
    this.idleTimer = setInterval(
      () => this.closeUnused(0),
      Math.min(IDLE_CHECK_MAX_MS, Math.max(250, this.limits.idleMs / 4)),
    );
    this.idleTimer.unref();
  }

  /**
   * Starts following published generations (a cluster): told of each one, an open service
   * switches to it; after the listening connection was away, every open service looks again.
   */
  async follow(): Promise<void> {
    const generations = this.following();
    if (generations === undefined || this.listening !== undefined) return;
    // Copies left by an earlier run of this node (it may have been killed mid-download) are not served again.
    await generations.cache.clear();
    this.listening = await generations.store.listen(
      (serviceId, generation) => {
        if ((this.open.get(serviceId)?.generation ?? generation) < generation)
          void this.takeInNewest(serviceId);
      },
      () => {
        for (const serviceId of this.open.keys()) void this.takeInNewest(serviceId);
      },
    );
  }

  /** The record of the search service at a tenant path (its index not opened), or undefined when there is none there. */
  async record(
    contractId: number,
    servicegroupId: number,
    serviceId: number,
  ): Promise<SearchServiceRecord | undefined> {
    const nowMs = performance.now();
    let recent = this.recentRecords.get(serviceId);
    if (recent === undefined || nowMs - recent.readAtMs > RECORD_REUSE_MS) {
      const read = await this.records.get(serviceId);
      // A service not (yet) there is asked again next time: it may be created any moment.
      if (read === undefined) {
        this.recentRecords.delete(serviceId);
        return undefined;
      }
      recent = { record: read, readAtMs: nowMs };
      this.recentRecords.set(serviceId, recent);
    }
    const { record } = recent;
    return record.contractId === contractId && record.servicegroupId === servicegroupId ? record : undefined;
  }

  /** The service's record changed here (its configuration): the next search reads it again. */
  forget(serviceId: number): void {
    this.recentRecords.delete(serviceId);
  }

  /** The search service at a tenant path, or undefined when there is none there. */
  async get(
    contractId: number,
    servicegroupId: number,
    serviceId: number,
  ): Promise<OpenSearchService | undefined> {
    const record = await this.record(contractId, servicegroupId, serviceId);
    if (record === undefined) return undefined;
    let served = this.open.get(serviceId) ?? this.revive(serviceId);
    if (served === undefined) {
      let opening = this.opening.get(serviceId);
      if (opening === undefined) {
        opening = this.openService(serviceId, record).finally(() => this.opening.delete(serviceId));
        this.opening.set(serviceId, opening);
      }
      served = await opening;
    } else if (served.config !== record.config) {
      // A record read again (RECORD_REUSE_MS): the rules are rebuilt only when they changed.
      served.config = record.config;
      served.search.configure(record.config);
    }
    served.lastUsedMs = performance.now();
    holdThroughThisTurn(served);
    return { record, search: served.search };
  }

  /** A service being closed, taken back into use as it is (its counts are kept). */
  private revive(serviceId: number): Served | undefined {
    const closing = this.closing.get(serviceId);
    if (closing === undefined || this.closed) return undefined;
    closing.revived = true;
    this.closing.delete(serviceId);
    this.open.set(serviceId, closing.served);
    return closing.served;
  }

  /** `get`, for a management call that may read what it is handed over several awaits. */
  private async managed(tenant: TenantRef, serviceId: number): Promise<OpenSearchService | undefined> {
    const open = await this.get(tenant.contractId, tenant.servicegroupId, serviceId);
    const served = this.open.get(serviceId);
    if (open !== undefined && served !== undefined) served.managedMs = performance.now();
    return open;
  }

  /**
   * Keeps an open service open while a feed writes its index, until the answer is called; a
   * service not open here has nothing to keep.
   */
  hold(serviceId: number): () => void {
    const served = this.open.get(serviceId);
    if (served === undefined) return () => undefined;
    served.holds += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      served.holds -= 1;
      served.lastUsedMs = performance.now();
    };
  }

  /**
   * Closes the services unused for the idle time, and while more than the limit less `room` are
   * open, the least recently used idle ones (open-service-limits.ts). What their searches
   * counted is written first; a generation's copy stays in the cache, still the current one.
   */
  private closeUnused(room: number): void {
    const nowMs = performance.now();
    const inUse = new Map(
      [...this.open].map(([serviceId, served]) => [
        serviceId,
        {
          lastUsedMs: served.lastUsedMs,
          busy: served.holds > 0 || served.search.searching || nowMs - served.managedMs < MANAGEMENT_USE_MS,
        },
      ]),
    );
    for (const serviceId of servicesToClose(inUse, this.limits, nowMs, room)) {
      const served = this.open.get(serviceId)!;
      this.open.delete(serviceId);
      this.caughtUp(serviceId);
      const closing: ClosingService = { served, revived: false, done: Promise.resolve() };
      closing.done = this.finishClosing(serviceId, closing);
      this.closing.set(serviceId, closing);
    }
  }

  /**
   * Writes what the service's searches counted, again each second while its log is busy (another
   * process writing the file), then closes its index, unless it was taken back meanwhile.
   */
  private async finishClosing(serviceId: number, closing: ClosingService): Promise<void> {
    const { activity } = closing.served.search;
    while (!closing.revived) {
      await activity.flush().catch((error: unknown) => this.onFlushError(error));
      if (!activity.pending || this.closed) break;
      await sleep(FLUSH_INTERVAL_MS);
    }
    // Nothing awaits from here on: a use now either revived it above or finds it closed.
    if (closing.revived) return;
    if (this.closing.get(serviceId) === closing) this.closing.delete(serviceId);
    if (this.following() !== undefined) this.closedCopies.set(serviceId, closing.served.file);
    closing.served.search.index.close();
  }

  private searchEngine(): Promise<typeof SearchEngine> {
    this.engine ??= import('./search-engine.js').catch((error: unknown) => {
      // Not kept: the next service opened tries again.
      this.engine = undefined;
      throw error;
    });
    return this.engine;
  }

  private async openService(serviceId: number, record: SearchServiceRecord): Promise<Served> {
    // Their start overlaps the opening: the first result page does not wait for a thread to load.
    this.hitPool?.start();
    const engine = await this.searchEngine();
    let source: ActivitySource | undefined;
    const shared = this.options.sharedActivity;
    if (shared !== undefined) {
      const log = shared.forService(serviceId);
      source = { log, counts: await log.counts(engine.MAX_TRACKED_QUERIES) };
    }
    const cache = this.following()?.cache;
    const local: LocalGeneration =
      cache === undefined
        ? await this.restored(engine, serviceId)
        : ((await cache.current(serviceId)) ?? (await cache.empty(serviceId)));
    const closedCopy = this.closedCopies.get(serviceId);
    this.closedCopies.delete(serviceId);
    if (cache !== undefined && closedCopy !== undefined && closedCopy !== local.file)
      await cache.discard(closedCopy).catch(() => undefined);
    if (this.closed) throw new SearchIndexUnavailableError('the search services are closing');
    const served = this.served(engine, serviceId, record.config, local, source);
    this.closeUnused(1);
    this.open.set(serviceId, served);
    // Its opener's lookup (get) holds it only once this promise's reactions run.
    holdThroughThisTurn(served);
    // A generation published while this one was fetched was told before the service was open.
    if (cache !== undefined) void this.takeInNewest(serviceId);
    return served;
  }

  private following(): PublishedGenerations | undefined {
    const generations = this.options.generations;
    return generations?.mode === 'follow' ? generations : undefined;
  }

  /**
   * The data directory's index of a service; on a shared store, first replaced by the newest
   * published generation when that is newer than the file (or the file is missing).
   */
  private async restored(engine: typeof SearchEngine, serviceId: number): Promise<LocalGeneration> {
    const file = searchIndexFile(this.dataDir, serviceId);
    const generations = this.options.generations;
    if (generations === undefined) return { generation: 0, file };
    const current = await generations.store.current(serviceId);
    if (
      current === undefined ||
      current.generation <= engine.publishedGenerationOf(file, this.upgradeReporter(engine, serviceId))
    )
      return { generation: 0, file };
    const fetched = await generations.cache.current(serviceId);
    if (fetched !== undefined) {
      await generations.cache.discard(file);
      await mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_FOLDER_MODE });
      await rename(fetched.file, file);
      engine.markPublishedGeneration(file, fetched.generation);
      this.onWarning(
        { search_service_id: serviceId },
        `the index of this data directory was older than the published generation ${fetched.generation}: restored from it`,
      );
    }
    return { generation: 0, file };
  }

  /**
   * Logs the upgrade of a service's index file written by an older analyzer: searches of the
   * service wait for it (docs/operations.md, Upgrading).
   */
  private upgradeReporter(engine: typeof SearchEngine, serviceId: number) {
    return engine.reanalysisReporter((message) => this.onWarning({ search_service_id: serviceId }, message));
  }

  /** A service opened on a local file. */
  private served(
    engine: typeof SearchEngine,
    serviceId: number,
    config: SearchServiceRecord['config'],
    local: LocalGeneration,
    source: ActivitySource | undefined,
  ): Served {
    let index: SearchIndex;
    try {
      index = new engine.SearchIndex(local.file, undefined, this.upgradeReporter(engine, serviceId));
    } catch (error) {
      throw new SearchIndexUnavailableError(
        `the index of search service ${serviceId}: ${(error as Error).message}`,
      );
    }
    const search = new engine.SiteSearch(
      index,
      config,
      new engine.SearchActivity(index.store, this.clock, this.analyticsOptions, source),
      {
        name: `search service ${serviceId}`,
        facetPool: this.facetPool,
        hitPool: this.hitPool,
        warn: (message) => this.onWarning({ search_service_id: serviceId }, message),
      },
    );
    return {
      search,
      config,
      file: local.file,
      generation: local.generation,
      lastUsedMs: performance.now(),
      holds: 0,
      managedMs: -Infinity,
    };
  }

  /**
   * Serves a generation this process just published before the run that made it is reported
   * finished: its pages are searchable here at once, on other nodes when they are told. A new base
   * comes with `snapshot`, its local copy; a delta is taken in as every node takes it.
   */
  async adopt(serviceId: number, generation: number, snapshot: string | undefined): Promise<void> {
    const cache = this.following()?.cache;
    const drop = () => (snapshot === undefined ? undefined : rm(snapshot, { force: true }));
    // This process serves the file it wrote the generation from.
    if (cache === undefined) return drop();
    if (snapshot === undefined) {
      if (this.open.has(serviceId)) await this.takeInNewest(serviceId);
      return;
    }
    await this.inTurn(serviceId, async () => {
      const open = this.open.get(serviceId);
      // Not served here (a worker that does not search), or already on it (told of it first):
      // nothing would ever remove the copy.
      if (open === undefined || open.generation >= generation || this.closed) return drop();
      this.switchTo(await this.searchEngine(), serviceId, await cache.adopt(serviceId, generation, snapshot));
    });
  }

  /** Whether the indexes served are those a writer here changes in place (not followed generations). */
  writesInPlace(): boolean {
    return this.following() === undefined;
  }

  /** The generation a service is served from (0: none published yet, or not a cluster); undefined when not open. */
  servedGeneration(serviceId: number): number | undefined {
    return this.open.get(serviceId)?.generation;
  }

  /**
   * Serves the newest generation of an open service. One that cannot be taken in is said in the
   * health check and tried again; the service is served on from the generation it has.
   */
  private takeInNewest(serviceId: number): Promise<void> {
    const cache = this.following()?.cache;
    if (cache === undefined) return Promise.resolve();
    return this.inTurn(serviceId, async () => {
      const local = await cache.current(serviceId);
      if (local !== undefined) this.switchTo(await this.searchEngine(), serviceId, local);
      this.caughtUp(serviceId);
    }).catch((error: unknown) => {
      const reason = `the newest index generation could not be taken in: ${error instanceof Error ? error.message : String(error)}`;
      this.onWarning({ search_service_id: serviceId }, reason);
      if (!this.open.has(serviceId) || this.closed) return;
      // Served on from the generation it has, said in the health check and the metrics, and
      // tried again without waiting for the next generation (the store may be back by then).
      this.caughtUp(serviceId);
      const retry = setTimeout(() => void this.takeInNewest(serviceId), BEHIND_RETRY_MS);
      retry.unref();
      this.behind.set(serviceId, { reason, retry });
    });
  }

  private caughtUp(serviceId: number): void {
    clearTimeout(this.behind.get(serviceId)?.retry);
    this.behind.delete(serviceId);
  }

  /**
   * What this node says of the generations it follows (docs/design/scale-out.md, Serving): the
   * services it serves from an older generation than the newest, why for one of them, and the
   * bytes it fetched. Undefined on a process that follows none.
   */
  followedGenerations(): { behind: number; problem?: string; fetchedBytes: number } | undefined {
    const following = this.following();
    if (following === undefined) return undefined;
    const [first] = this.behind;
    return {
      behind: this.behind.size,
      ...(first !== undefined && { problem: `search service ${first[0]}: ${first[1].reason}` }),
      fetchedBytes: following.cache.fetchedBytes,
    };
  }

  private inTurn(serviceId: number, work: () => Promise<void>): Promise<void> {
    return this.switching.run(serviceId, work);
  }

  /**
   * Replaces an open service's generation with a newer one in one step: a search started before
   * ends on the old one, every later one runs on the new one. What visitors did is carried over.
   * The old generation is closed once its searches are long done, and its copy given up (kept as
   * the service's spare when it can be one, generation-cache.ts).
   */
  private switchTo(engine: typeof SearchEngine, serviceId: number, local: LocalGeneration): void {
    const old = this.open.get(serviceId);
    if (old === undefined || old.generation >= local.generation || this.closed) return;
    const source = this.options.sharedActivity && {
      log: this.options.sharedActivity.forService(serviceId),
      counts: old.search.activity.heldCounts(),
    };
    const next = this.served(engine, serviceId, old.config, local, source);
    next.lastUsedMs = old.lastUsedMs;
    next.managedMs = old.managedMs;
    this.open.set(serviceId, next);
    this.retire(old);
  }

  private retire(old: Served): void {
    void old.search.activity.flush().catch((error: unknown) => this.onFlushError(error));
    const timer = setTimeout(() => {
      this.retiring.delete(timer);
      void this.closeServed(old);
    }, RETIRED_CLOSE_MS);
    timer.unref();
    this.retiring.set(timer, old);
  }

  /** Writes what searches still counted on a retired generation, then closes it and gives up its copy. */
  private async closeServed(served: Served): Promise<void> {
    await served.search.activity.flush().catch((error: unknown) => this.onFlushError(error));
    served.search.index.close();
    await this.following()
      ?.cache.discard(served.file)
      .catch(() => undefined);
  }

  /**
   * What the console shows of a service's index (docs/console.md, Site search): documents, the
   * bytes of its files and when they last changed; undefined when there is no such service.
   */
  async indexStatus(tenant: TenantRef, serviceId: number): Promise<IndexStatus | undefined> {
    const open = await this.managed(tenant, serviceId);
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

  /** The size and last change of a service's index file (the one served) and its WAL (either may be missing). */
  private indexFiles(serviceId: number): { bytes: number; modifiedMicros: number } {
    const file = this.open.get(serviceId)?.file ?? searchIndexFile(this.dataDir, serviceId);
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
    return (await this.managed(tenant, serviceId))?.search.index.store.documentUrls(limit) ?? [];
  }

  /**
   * The per-day analytics of a service, with what this process counted so far written first (a
   * search made a moment ago is in them); undefined when there is no such service.
   */
  async analytics(tenant: TenantRef, serviceId: number): Promise<SearchAnalyticsReader | undefined> {
    const open = await this.managed(tenant, serviceId);
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
      return [...this.open.values()].every((served) => served.search.index.store.ping());
    } catch {
      return false;
    }
  }

  /** Writes what every open service counted; a failure is reported, and its counts kept for the next. */
  async flush(): Promise<void> {
    await Promise.all(
      [...this.open.values()].map((served) =>
        served.search.activity.flush().catch((error: unknown) => this.onFlushError(error)),
      ),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.flushTimer);
    clearInterval(this.idleTimer);
    for (const serviceId of [...this.behind.keys()]) this.caughtUp(serviceId);
    await this.listening?.close().catch(() => undefined);
    await this.switching.idle();
    await this.flushing;
    await this.flush();
    for (const served of this.open.values()) served.search.index.close();
    this.open.clear();
    await Promise.all([...this.closing.values()].map((closing) => closing.done));
    const retired = [...this.retiring];
    this.retiring.clear();
    for (const [timer] of retired) clearTimeout(timer);
    await Promise.all(retired.map(([, served]) => this.closeServed(served)));
    void this.facetPool.close();
    void this.hitPool?.close();
  }
}
