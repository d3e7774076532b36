import type { ObjectSpool } from '../artifacts/object-spool.js';
import { bundleMembersOf } from '../artifacts/bundle-members.js';
import { CHROMIUM_INSTALL_HINT } from '../browser/chromium-launch.js';
import type { PageRenderer, RenderSession } from '../browser/render-types.js';
import { type CrawlSettings, DEFAULT_VIEWPORT, rendersPages } from '../domain/crawl-settings.js';
import type { FrontierEntry, RunDataStore, RunProgress } from '../store/run-data.js';
import type { Clock } from '../util/clock.js';
import { kindByContentType } from './file-kinds.js';
import { CredentialRules } from './credential-rules.js';
import { HostPacer } from './host-pacer.js';
import type { HttpFetcher } from './http-fetcher.js';
import { IdentityCache } from './identity-cache.js';
import { type FetchLimits, fetchPage, type PageFetchPolicy, type PageFetchResult } from './page-fetch.js';
import { recordPage } from './page-record.js';
import { type RenderContext, type RenderOutcome, renderFetchedPage } from './page-rendering.js';
import { RobotsRules } from './robots-rules.js';
import { CrawlScope } from './scope.js';
import { fetchUrlOf, fingerprintOf, identityOf, seedUrlOf } from './url-identity.js';

export interface CrawlEngineDeps {
  fetcher: HttpFetcher;
  store: RunDataStore;
  spool: ObjectSpool;
  clock: Clock;
  limits: FetchLimits;
  /** User-Agent when the setting gives none. */
  defaultUserAgent: string;
  /** Time zone of timestamps written into the bundle. */
  timezone: string;
  /** Chromium, for runs with a screenshot or wait_type 2; without it such runs fail at start. */
  renderer?: PageRenderer;
  /** Told of every page crawled (metrics); must not throw. */
  observer?: CrawlObserver;
}

/** Watches a crawl's pages (the service's metrics count pages fetched and failures by kind). */
export interface CrawlObserver {
  /**
   * A page was crawled and its URL row stored, failed or not. Pages excluded by content type,
   * skipped by robots.txt, or cut short by a cancel or the execution timeout are not reported.
   */
  pageFetched(
    result: Exclude<PageFetchResult, { kind: 'excluded' }>,
    rendering: RenderOutcome | undefined,
  ): void;
}

export interface CrawlControl {
  /** Aborting it cancels the run (state 2050). */
  cancelSignal: AbortSignal;
  /**
   * Aborting it drains the run for a shutdown: no new page starts, pages in flight finish and are
   * stored, and the outcome is `interrupted` (the run resumes later).
   */
  drainSignal?: AbortSignal;
  /** Wall-clock end of the run in epoch microseconds (execution_timeout; state 2060). */
  deadlineMicros: number;
  onProgress?: (progress: RunProgress & { errors: number }) => void;
}

/** How a run ended; an internal failure is thrown instead (state 2040). */
export type CrawlOutcome = 'completed' | 'limit_reached' | 'cancelled' | 'timed_out' | 'interrupted';

/** How long in-flight fetches may take to unwind after a cancel or timeout. */
const STOP_GRACE_MS = 3000;

/**
 * Runs one crawl over its stored frontier until nothing is left, the documents limit is reached,
 * or it is cancelled or timed out. Safe to call again on the same store after a crash: it
 * continues with the URLs not yet fetched.
 */
export async function runCrawl(
  settings: CrawlSettings,
  deps: CrawlEngineDeps,
  control: CrawlControl,
): Promise<CrawlOutcome> {
  const session = rendersPages(settings) ? await openRenderSession(settings, deps) : undefined;
  const stop = new AbortController();
  const onCancel = () => stop.abort('cancelled');
  control.cancelSignal.addEventListener('abort', onCancel, { once: true });
  if (control.cancelSignal.aborted) stop.abort('cancelled');
  const remainingMs = Math.max(0, (control.deadlineMicros - deps.clock.nowMicros()) / 1000);
  const deadlineTimer = setTimeout(() => stop.abort('timed_out'), Math.min(remainingMs, 2 ** 31 - 1));
  try {
    const crawl = new CrawlLoop(settings, deps, control, stop.signal, session);
    crawl.seed();
    await crawl.run();
  } finally {
    clearTimeout(deadlineTimer);
    await session?.close();
    control.cancelSignal.removeEventListener('abort', onCancel);
  }
  if (stop.signal.aborted) return stop.signal.reason === 'timed_out' ? 'timed_out' : 'cancelled';
  if (control.drainSignal?.aborted) return 'interrupted';
  const { crawled } = deps.store.progress();
  return settings.documentsLimit !== null && crawled >= settings.documentsLimit
    ? 'limit_reached'
    : 'completed';
}

class CrawlLoop {
  private readonly scope: CrawlScope;
  private readonly pacer: HostPacer;
  private readonly robots: RobotsRules;
  private readonly policy: PageFetchPolicy;
  private readonly renderContext: RenderContext | undefined;
  private readonly credentials: CredentialRules;
  private readonly userAgent: string;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly knownIdentities = new IdentityCache();
  /** Mirror of the store's counters, so progress reports cost no query. */
  private progress: RunProgress = { crawled: 0, total: 0 };
  private buffer: FrontierEntry[] = [];
  private cursor = 0;
  private started = 0;
  private errors = 0;
  private failure: unknown;
  private wake: (() => void) | undefined;

  constructor(
    private readonly settings: CrawlSettings,
    private readonly deps: CrawlEngineDeps,
    private readonly control: CrawlControl,
    private readonly stopSignal: AbortSignal,
    session: RenderSession | undefined,
  ) {
    this.scope = new CrawlScope(settings);
    this.pacer = new HostPacer(settings.delaySeconds * 1000);
    this.userAgent = settings.userAgent ?? deps.defaultUserAgent;
    this.credentials = new CredentialRules(settings);
    this.policy = {
      headersFor: (url) => this.headersFor(url),
      refuseRedirect: (target) => this.refuseRedirect(target),
      acceptsContentType: (contentType) => this.acceptsContentType(contentType),
    };
    this.robots = new RobotsRules(deps.fetcher, this.policy, deps.limits, this.userAgent, stopSignal);
    this.renderContext = session && { session, settings, signal: stopSignal };
  }

  /** Puts the seeds in the frontier on the first start; a resumed run keeps its frontier. */
  seed(): void {
    const store = this.deps.store;
    this.progress = store.progress();
    this.started = this.progress.crawled;
    if (this.progress.total > 0 || this.started > 0) return;
    const entries = [];
    for (const raw of this.settings.seedUrls) {
      const url = seedUrlOf(raw, this.settings.keepFragment);
      if (url === undefined) continue;
      entries.push({
        fingerprint: fingerprintOf(identityOf(url, this.settings)),
        url: url.href,
        depth: 0,
        referrer: null,
      });
    }
    store.enqueue(entries);
    this.progress = store.progress();
  }

  async run(): Promise<void> {
    const limit = this.settings.documentsLimit;
    const concurrency = this.settings.concurrency;
    const draining = this.control.drainSignal;
    while (!this.stopSignal.aborted && this.failure === undefined && !draining?.aborted) {
      if (limit !== null && this.started >= limit) {
        if (this.inFlight.size === 0) break;
        await this.nextEvent();
        continue;
      }
      if (this.buffer.length < concurrency) this.refill(concurrency * 4);
      if (this.buffer.length === 0) {
        if (this.inFlight.size === 0) break;
        await this.nextEvent();
        continue;
      }
      if (this.inFlight.size >= concurrency) {
        await this.nextEvent();
        continue;
      }
      const nowMs = this.deps.clock.nowMicros() / 1000;
      const pick = this.pacer.pick(
        this.buffer.map((entry) => hostOf(entry.url)),
        nowMs,
      );
      if (pick.index < 0) {
        await this.nextEvent(pick.waitMs);
        continue;
      }
      const [entry] = this.buffer.splice(pick.index, 1);
      this.launch(entry!);
    }
    await this.settle();
    if (this.failure !== undefined) throw this.failure;
  }

  private refill(limit: number): void {
    const more = this.deps.store.nextQueued(this.cursor, limit - this.buffer.length);
    if (more.length === 0) return;
    this.cursor = more[more.length - 1]!.seq;
    this.buffer.push(...more);
  }

  private launch(entry: FrontierEntry): void {
    this.started += 1;
    const task = this.crawlEntry(entry)
      .catch((error: unknown) => {
        this.failure ??= error;
      })
      .finally(() => {
        this.inFlight.delete(task);
        this.wake?.();
      });
    this.inFlight.add(task);
  }

  private async crawlEntry(entry: FrontierEntry): Promise<void> {
    const url = new URL(entry.url);
    const fetchUrl = fetchUrlOf(url);
    if (this.settings.obeyRobots) {
      const robots = await this.robots.forUrl(url);
      if (robots.crawlDelaySeconds !== undefined)
        this.pacer.raiseDelay(url.host, robots.crawlDelaySeconds * 1000);
      if (!robots.isAllowed(fetchUrl)) return this.skip(entry);
    }
    if (this.stopSignal.aborted) return;
    const result = await fetchPage(
      this.deps.fetcher,
      fetchUrl,
      this.policy,
      this.deps.limits,
      this.stopSignal,
    );
    // A fetch cut short by cancel or timeout is not an outcome: the run ends without its row.
    if (this.stopSignal.aborted) return;
    if (result.kind === 'excluded') return this.skip(entry);
    const rendering = this.renderContext && (await renderFetchedPage(entry, result, this.renderContext));
    if (this.stopSignal.aborted) return;
    const recorded = recordPage(entry, fetchUrl, result, rendering, this.deps.clock.nowMicros(), {
      settings: this.settings,
      scope: this.scope,
      knownIdentities: this.knownIdentities,
      timezone: this.settings.timezone ?? this.deps.timezone,
    });
    const { commit, bundleFiles } = recorded;
    if (bundleFiles !== undefined) {
      // Compressed now, so packing the bundle at the end of the run is a copy.
      const members = await bundleMembersOf(bundleFiles);
      if (this.stopSignal.aborted) return;
      const bytes = members.reduce((sum, member) => sum + member.length, 0);
      commit.object = { offset: this.deps.spool.append(members), bytes };
    }
    if (!commit.row.ok) this.errors += 1;
    const added = this.deps.store.commitPage(commit);
    for (const identity of recorded.discoveredIdentities) this.knownIdentities.add(identity);
    this.progress.crawled += 1;
    this.progress.total += added;
    this.deps.observer?.pageFetched(result, rendering);
    this.reportProgress();
  }

  private skip(entry: FrontierEntry): void {
    this.started -= 1;
    this.deps.store.skip(entry.seq);
    this.progress.total -= 1;
  }

  private reportProgress(): void {
    this.control.onProgress?.({ ...this.progress, errors: this.errors });
  }

  private headersFor(url: URL): Record<string, string> {
    const headers: Record<string, string> = { 'user-agent': this.userAgent, accept: '*/*' };
    if (this.settings.language !== null) headers['accept-language'] = this.settings.language;
    const authorization = this.credentials.authorizationFor(url);
    if (authorization !== undefined) headers.authorization = authorization;
    return headers;
  }

  private async refuseRedirect(target: URL): Promise<string | undefined> {
    const reason = this.scope.check(target);
    if (reason !== undefined) return `redirect target out of scope (${reason})`;
    if (this.settings.obeyRobots) {
      const robots = await this.robots.forUrl(target);
      if (!robots.isAllowed(fetchUrlOf(target))) return 'redirect target disallowed by robots.txt';
    }
    return undefined;
  }

  private acceptsContentType(contentType: string | undefined): boolean {
    const kind = kindByContentType(contentType);
    if (kind === 'pdf') return this.settings.includePdf;
    if (kind === 'office') return this.settings.includeOffice;
    return true;
  }

  private nextEvent(timeoutMs?: number): Promise<void> {
    return new Promise((resolve) => {
      const drain = this.control.drainSignal;
      const done = () => {
        clearTimeout(timer);
        this.stopSignal.removeEventListener('abort', done);
        drain?.removeEventListener('abort', done);
        this.wake = undefined;
        resolve();
      };
      const timer = timeoutMs === undefined ? undefined : setTimeout(done, Math.max(1, timeoutMs));
      this.stopSignal.addEventListener('abort', done, { once: true });
      drain?.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
  }

  /**
   * Waits for in-flight pages (a drain waits for them to finish normally); after a stop, at most
   * STOP_GRACE_MS, since their fetches are aborted. Pages started meanwhile are waited for too.
   */
  private async settle(): Promise<void> {
    if (this.inFlight.size === 0) return;
    if (!this.stopSignal.aborted) {
      while (this.inFlight.size > 0 && !this.stopSignal.aborted) {
        await Promise.race([Promise.allSettled([...this.inFlight]), this.nextEvent()]);
      }
      if (!this.stopSignal.aborted) return;
    }
    const all = Promise.allSettled([...this.inFlight]);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise((resolve) => (timer = setTimeout(resolve, STOP_GRACE_MS)))]);
    clearTimeout(timer);
  }
}

/**
 * The run's browser session. A run that needs the browser fails at once (state 2040) when there
 * is none, saying how to get one.
 */
async function openRenderSession(settings: CrawlSettings, deps: CrawlEngineDeps): Promise<RenderSession> {
  const renderer = deps.renderer;
  if (renderer === undefined) {
    throw new Error(`browser rendering is not available in this process: ${CHROMIUM_INSTALL_HINT}`);
  }
  await renderer.ensureAvailable();
  const userAgent = settings.userAgent ?? deps.defaultUserAgent;
  const credentials = new CredentialRules(settings);
  return renderer.openSession({
    userAgent,
    language: settings.language,
    viewport: settings.screenshot
      ? { width: settings.screenshot.width, height: settings.screenshot.height }
      : DEFAULT_VIEWPORT,
    authorizationFor: (url) => credentials.authorizationFor(url),
  });
}

function hostOf(url: string): string {
  const start = url.indexOf('//') + 2;
  const end = url.indexOf('/', start);
  return url.slice(start, end < 0 ? undefined : end);
}
