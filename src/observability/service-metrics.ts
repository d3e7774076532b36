import type * as PromClient from 'prom-client';
import { RunState, type RunStateId } from '../domain/index.js';
import { lazyRequire } from '../util/index.js';
import { registerEventLoopDelay, watchEventLoopDelay } from './event-loop-delay.js';
import type { FollowedGenerations } from './health.js';

/** What the gauges read at scrape time. Each may fail (store closed): the gauge is then left out. */
export interface MetricSources {
  /** Runs per state, from the store. */
  runsByState(): Promise<Readonly<Record<RunStateId, number>>>;
  /** Webhook deliveries waiting to be attempted (again); undefined when the store cannot tell. */
  pendingDeliveries(): Promise<number | undefined>;
  /** On a search node, the generations it follows (health.ts); undefined elsewhere. */
  searchGenerations?(): FollowedGenerations | undefined;
}

/** Methods a route label may carry; anything else is `other`. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);

/** The route label of a request that matched no route (404 of an unknown path). */
export const UNMATCHED_ROUTE = 'unmatched';

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SEARCH_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** The Prometheus text format (prom-client's Registry.PROMETHEUS_CONTENT_TYPE). */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * prom-client, required with the first request answered or the first scrape: with what it
 * loads it is a couple of MB that a service nobody has called yet does not need
 * (docs/operations.md, Memory). Every count it would have kept before then is zero.
 */
const promClient = lazyRequire<typeof PromClient>('prom-client');

/**
 * Process metrics (CPU, memory, event loop lag, GC, handles, and the event loop's worst delay
 * since the previous scrape) of this Node.js process, in a
 * registry of their own created once: several services in one process (tests) share the process,
 * and collecting them once keeps one GC observer and one event loop monitor. It is not prom-client's
 * global default registry, so nothing else registering there mixes in.
 */
let processRegistry: PromClient.Registry | undefined;

function processMetrics(): PromClient.Registry {
  if (processRegistry === undefined) {
    const { collectDefaultMetrics, Registry } = promClient();
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
    registerEventLoopDelay(promClient(), processRegistry);
  }
  return processRegistry;
}

/** Reads what a gauge shows at scrape time; undefined when it cannot be read. */
type SourceReader = <T>(get: (sources: MetricSources) => Promise<T>) => Promise<T | undefined>;

/** The metrics of one service instance, in a registry of their own. */
class Instruments {
  readonly registry: PromClient.Registry;
  readonly httpRequests: PromClient.Counter<'route' | 'method' | 'status'>;
  readonly httpDuration: PromClient.Histogram<'route' | 'method'>;
  readonly pagesFetched: PromClient.Counter;
  readonly fetchErrors: PromClient.Counter<'kind'>;
  readonly searchDuration: PromClient.Histogram;
  readonly checkpoints: PromClient.Counter<'outcome'>;
  readonly checkpointDuration: PromClient.Histogram;
  readonly runsTakenOver: PromClient.Counter;
  readonly runThreadsStarted: PromClient.Counter;

  constructor(read: SourceReader) {
    const { Counter, Gauge, Histogram, Registry } = promClient();
    const registry = new Registry();
    this.registry = registry;
    this.httpRequests = new Counter({
      name: 'kumo_http_requests_total',
      help: 'HTTP requests answered, by route template, method and status code',
      labelNames: ['route', 'method', 'status'] as const,
      registers: [registry],
    });
    this.httpDuration = new Histogram({
      name: 'kumo_http_request_duration_seconds',
      help: 'Time from receiving a request to sending its answer, by route template and method',
      labelNames: ['route', 'method'] as const,
      buckets: HTTP_BUCKETS,
      registers: [registry],
    });
    this.pagesFetched = new Counter({
      name: 'kumo_pages_fetched_total',
      help: 'Pages crawled by runs of this instance (a URL row written), failures included',
      registers: [registry],
    });
    this.fetchErrors = new Counter({
      name: 'kumo_fetch_errors_total',
      help: 'Crawled pages that failed, by kind (dns, connect, tls, timeout, http_4xx, http_5xx, body_too_large...)',
      labelNames: ['kind'] as const,
      registers: [registry],
    });
    this.searchDuration = new Histogram({
      name: 'kumo_search_duration_seconds',
      help: 'Time the search engine took to answer a site search request',
      buckets: SEARCH_BUCKETS,
      registers: [registry],
    });
    this.checkpoints = new Counter({
      name: 'kumo_run_checkpoints_total',
      help: 'Checkpoints of running runs into a shared database, by outcome (saved, failed, lost)',
      labelNames: ['outcome'] as const,
      registers: [registry],
    });
    this.checkpointDuration = new Histogram({
      name: 'kumo_run_checkpoint_duration_seconds',
      help: 'Time to read, store and write one checkpoint of a running run',
      buckets: HTTP_BUCKETS,
      registers: [registry],
    });
    this.runsTakenOver = new Counter({
      name: 'kumo_runs_taken_over_total',
      help: 'Running runs this instance took from a worker that died or handed them back',
      registers: [registry],
    });
    this.runThreadsStarted = new Counter({
      name: 'kumo_run_threads_started_total',
      help: 'Threads started to execute crawl runs; a run that took a thread kept from an earlier run started none',
      registers: [registry],
    });
    const runs = new Gauge({
      name: 'kumo_runs',
      help: 'Crawl runs by state (2010 pending, 2020 running, 2030 stopped, 2040 fault, 2050 cancelled, 2060 timed out)',
      labelNames: ['state'] as const,
      registers: [registry],
      collect: async () => {
        runs.reset();
        const counts = await read((sources) => sources.runsByState());
        if (counts === undefined) return;
        for (const state of Object.values(RunState)) runs.set({ state: String(state) }, counts[state] ?? 0);
      },
    });
    const runQueue = new Gauge({
      name: 'kumo_run_queue_depth',
      help: 'Crawl runs waiting for a worker (state 2010)',
      registers: [registry],
      collect: async () => {
        runQueue.reset();
        const counts = await read((sources) => sources.runsByState());
        if (counts !== undefined) runQueue.set(counts[RunState.pending] ?? 0);
      },
    });
    const behind = new Gauge({
      name: 'kumo_search_services_behind',
      help: 'Search services this node serves from an older generation than the newest, because taking that in failed',
      registers: [registry],
      collect: async () => {
        behind.reset();
        const followed = await read(async (sources) => sources.searchGenerations?.());
        if (followed !== undefined) behind.set(followed.behind);
      },
    });
    let fetchedSoFar = 0;
    const fetched = new Counter({
      name: 'kumo_search_generation_fetched_bytes_total',
      help: 'Bytes of search index generations this node fetched from the object storage',
      registers: [registry],
      collect: async () => {
        const followed = await read(async (sources) => sources.searchGenerations?.());
        if (followed === undefined || followed.fetchedBytes <= fetchedSoFar) return;
        fetched.inc(followed.fetchedBytes - fetchedSoFar);
        fetchedSoFar = followed.fetchedBytes;
      },
    });
    const webhookQueue = new Gauge({
      name: 'kumo_webhook_queue_depth',
      help: 'Webhook deliveries waiting for their first attempt or a retry',
      registers: [registry],
      collect: async () => {
        webhookQueue.reset();
        const pending = await read((sources) => sources.pendingDeliveries());
        if (pending !== undefined) webhookQueue.set(pending);
      },
    });
  }
}

/**
 * The metrics of one service instance (`GET /metrics`), in a registry of its own. Counters count
 * from the start of the instance; gauges are read from the store at scrape time.
 */
export class ServiceMetrics {
  /** Made with the first observation or scrape (promClient). */
  private created: Instruments | undefined;
  private sources: MetricSources | undefined;

  constructor() {
    // Watched from the start, so that the first scrape shows the holds since then.
    watchEventLoopDelay();
  }

  private instruments(): Instruments {
    this.created ??= new Instruments((get) => this.read(get));
    return this.created;
  }

  /** A checkpoint of a running run ended (docs/design/scale-out.md, Run leases). */
  checkpointEnded(outcome: 'saved' | 'failed' | 'lost', seconds: number): void {
    const { checkpoints, checkpointDuration } = this.instruments();
    checkpoints.inc({ outcome });
    checkpointDuration.observe(seconds);
  }

  /** A run left by another worker was taken by this instance. */
  runTakenOver(): void {
    this.instruments().runsTakenOver.inc();
  }

  /** Pages runs crawled, reported by their threads, and how many of them failed, by kind. */
  pagesObserved(count: number, failures: Readonly<Record<string, number>>): void {
    const { pagesFetched, fetchErrors } = this.instruments();
    pagesFetched.inc(count);
    for (const [kind, failed] of Object.entries(failures)) fetchErrors.inc({ kind }, failed);
  }

  /** A thread was started for a run (no thread kept from an earlier run was waiting). */
  runThreadStarted(): void {
    this.instruments().runThreadsStarted.inc();
  }

  /** Tells the gauges where to read; before this they are left out of the scrape. */
  setSources(sources: MetricSources): void {
    this.sources = sources;
  }

  /** Adds the generations a search node follows to what the gauges read (known once its services are made). */
  followGenerations(read: () => FollowedGenerations | undefined): void {
    if (this.sources !== undefined) this.sources = { ...this.sources, searchGenerations: read };
  }

  /** One answered request; `route` is the route template, undefined when no route matched. */
  recordRequest(route: string | undefined, method: string, status: number, seconds: number): void {
    const labels = {
      route: route ?? UNMATCHED_ROUTE,
      method: KNOWN_METHODS.has(method) ? method : 'other',
    };
    const { httpRequests, httpDuration } = this.instruments();
    httpRequests.inc({ ...labels, status: String(status) });
    httpDuration.observe(labels, seconds);
  }

  /** The engine time of one site search. */
  observeSearch(seconds: number): void {
    this.instruments().searchDuration.observe(seconds);
  }

  /** The Prometheus text of the process metrics and this instance's metrics. */
  async text(): Promise<string> {
    const [process, instance] = await Promise.all([
      processMetrics().metrics(),
      this.instruments().registry.metrics(),
    ]);
    return `${process}\n${instance}`;
  }

  /** A scrape must not fail because the store is closing: the gauges it cannot read are left out. */
  private async read<T>(get: (sources: MetricSources) => Promise<T>): Promise<T | undefined> {
    if (this.sources === undefined) return undefined;
    try {
      return await get(this.sources);
    } catch {
      return undefined;
    }
  }
}
