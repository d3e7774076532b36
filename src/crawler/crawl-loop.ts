import { urlErrorKind, type CrawlSettings, rendersPages } from '../domain/index.js';
import type { RenderSession } from '../browser/index.js';
import type { FrontierEntry, RunProgress } from '../run-data/index.js';
import { BodyBudget, type BodyHold, budgetedFetcher, DEFAULT_BODY_BUDGET_BYTES } from './body-budget.js';
import type { CrawlControl, CrawlEngineDeps } from './crawl-engine-deps.js';
import { CredentialRules } from './credential-rules.js';
import { failureReasonOf } from './failure-reason.js';
import { kindByContentType } from './file-kinds.js';
import { type HostPace, HostPacer, type HostPermit, pacedFetcher } from './host-pacer.js';
import { fetchPage, type PageFetchPolicy, type PageFetchResult, parseRetryAfterMs } from './page-fetch.js';
import { FIRST_PAUSE_MS, HostHealth, notFetchedRowsOf } from './host-health.js';
import { conditionalHeadersOf, type PreviousPage } from './previous-answers.js';
import { keptWithoutRequest } from './lastmod-skip.js';
import type { FetchedResult } from './page-record.js';
import type { HttpFetcher } from './http-fetcher.js';
import { FetchFailure } from './fetch-errors.js';
import type { PreparedPage } from './page-record-job.js';
import { PageRecorder, preparedInline } from './page-recorder.js';
import { type RenderContext, renderFetchedPage } from './page-rendering.js';
import { type RobotsPolicy, RobotsRules } from './robots-rules.js';
import { readRunSitemaps, readsSitemaps } from './run-sitemaps.js';
import { MAX_SITEMAP_BYTES } from './sitemap-reader.js';
import { SitemapSlot } from './sitemap-slot.js';
import { CrawlScope } from './scope.js';
import { recordUnanswered } from './unanswered-record.js';
import { fetchUrlOf, fingerprintOf, identityOf, seedUrlOf } from './url-identity.js';

/** How long in-flight fetches may take to unwind after a cancel or timeout. */
const STOP_GRACE_MS = 3000;

/**
 * One run's crawl over its stored frontier (runCrawl in crawl-engine.ts owns its start and end):
 * pages are fetched under scope, robots.txt and credential rules, each request start waiting for
 * its host's pace, and each page is stored with its row, files and links in one transaction.
 */
export class CrawlLoop {
  private readonly scope: CrawlScope;
  private readonly pace: HostPace;
  /** Crawl-delay of the hosts whose robots.txt gave one, in milliseconds. */
  private readonly crawlDelayMs = new Map<string, number>();
  /**
   * Hosts with a page of this run waiting for its robots.txt or its pace: the next page of such a
   * host is not started, so waiting pages never fill the run's concurrency while other hosts
   * could be crawled.
   */
  private readonly waitingHosts = new Set<string>();
  /** Stops waiting for a host's pace: a stop, or a drain (a page not yet started is not in flight). */
  private readonly waitSignal: AbortSignal;
  private readonly robots: RobotsRules;
  /** Rendered pages are always fetched whole: a screenshot shows the page as it is now. */
  private readonly rerendered: boolean;
  /** The run's fetcher, every answer of which reaches the hosts' health. */
  private readonly fetcher: HttpFetcher;
  /** 429/503 slowdowns and 5xx pauses of each host (host-health.ts). */
  private readonly health: HostHealth;
  private readonly policy: PageFetchPolicy;
  private readonly renderContext: RenderContext | undefined;
  private readonly credentials: CredentialRules;
  private readonly userAgent: string;
  private readonly inFlight = new Set<Promise<void>>();
  /** The sitemap reading while it goes on (startSitemaps). */
  private sitemapReading: Promise<void> | undefined;
  /** The request slot the sitemap reading borrows (sitemap-slot.ts). */
  private readonly sitemapSlot = new SitemapSlot(() => this.wake?.());

  private readonly recorder: PageRecorder;
  private readonly bodyBudget: BodyBudget;
  /** Mirror of the store's counters, so progress reports cost no query. */
  private progress: RunProgress = { crawled: 0, total: 0 };
  /** Rows of URLs a given-up host kept from being fetched: rows, but no fetches of documents_limit. */
  private notFetchedRows = 0;
  private buffer: FrontierEntry[] = [];
  private cursor = 0;
  private started = 0;
  private errors = 0;
  /** Failed URLs by kind, for the live run page (docs/console.md, Runs). */
  private readonly errorKinds: Record<string, number> = {};
  private failure: unknown;
  /** Aborted when the run fails, so that nothing waits for a host any longer. */
  private readonly failed = new AbortController();
  private wake: (() => void) | undefined;

  constructor(
    private readonly settings: CrawlSettings,
    private readonly deps: CrawlEngineDeps,
    private readonly control: CrawlControl,
    private readonly stopSignal: AbortSignal,
    session: RenderSession | undefined,
  ) {
    this.scope = new CrawlScope(settings);
    // Without a shared pace (tests, tools) the run paces its hosts alone, with no per-host budget
    // beyond its own concurrency.
    this.pace = deps.pace ?? new HostPacer(Number.POSITIVE_INFINITY);
    const drain = control.drainSignal;
    // A failure ends the run too: pages waiting for a host (a pause can last minutes) give up.
    this.waitSignal = AbortSignal.any([
      stopSignal,
      this.failed.signal,
      ...(drain === undefined ? [] : [drain]),
    ]);
    this.userAgent = settings.userAgent ?? deps.defaultUserAgent;
    this.credentials = new CredentialRules(settings);
    this.rerendered = rendersPages(settings);
    this.fetcher = this.observedFetcher(deps.fetcher);
    // Monotonic time: a pause is a wait of this run, whatever the service clock says.
    this.health = new HostHealth({
      nowMs: () => performance.now(),
      firstPauseMs: deps.limits.hostPauseMs ?? FIRST_PAUSE_MS,
      changed: (events) => deps.store.recordHostEvents(events),
      earlier: deps.store.hostEvents(),
    });
    this.policy = {
      headersFor: (url) => this.headersFor(url),
      refuseRedirect: (target) => this.refuseRedirect(target),
      acceptsContentType: (contentType) => this.acceptsContentType(contentType),
    };
    // robots.txt is a request to the host like any other and waits for the pace too; a drain lets
    // it finish (a page waiting for it is in flight), the shutdown's hard stop does not.
    this.robots = new RobotsRules(
      this.fetcher,
      this.policy,
      deps.limits,
      this.userAgent,
      stopSignal,
      (host) => this.permitFor(host, stopSignal),
    );
    this.renderContext = session && { session, settings, signal: stopSignal };
    this.recorder = new PageRecorder(settings, settings.timezone ?? deps.timezone);
    this.bodyBudget = new BodyBudget(deps.limits.bodyBudgetBytes ?? DEFAULT_BODY_BUDGET_BYTES);
  }

  /** Puts the seeds in the frontier on the first start; a resumed run keeps its frontier. */
  seed(): void {
    const store = this.deps.store;
    this.progress = store.progress();
    this.notFetchedRows = notFetchedRowsOf(store);
    this.started = this.progress.crawled - this.notFetchedRows;
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
    this.recorder.start();
    this.startSitemaps();
    try {
      await this.crawlFrontier();
      this.sitemapSlot.stop();
      await this.settle();
      await this.sitemapReading;
    } finally {
      await this.recorder.close();
    }
    if (this.failure !== undefined) throw this.failure;
  }

  private async crawlFrontier(): Promise<void> {
    const limit = this.settings.documentsLimit;
    const concurrency = this.settings.concurrency;
    const draining = this.control.drainSignal;
    while (!this.stopSignal.aborted && this.failure === undefined && !draining?.aborted) {
      if (limit !== null && this.started >= limit) {
        if (this.fetchedRows() >= limit) this.sitemapSlot.stop();
        if (this.inFlight.size === 0) break;
        await this.nextEvent();
        continue;
      }
      const busy = this.inFlight.size + (this.sitemapSlot.held ? 1 : 0);
      // A sitemap fetch waiting for a slot goes before the next page: its URLs feed the frontier.
      if (this.sitemapSlot.requested && busy < concurrency) {
        this.sitemapSlot.grant();
        continue;
      }
      if (this.buffer.length < concurrency) this.refill(concurrency * 4);
      if (this.buffer.length === 0) {
        if (this.inFlight.size === 0 && this.sitemapReading === undefined) break;
        await this.nextEvent();
        continue;
      }
      if (busy >= concurrency) {
        await this.nextEvent();
        continue;
      }
      const index = this.buffer.findIndex((entry) => !this.waitingHosts.has(hostOf(entry.url)));
      if (index < 0) {
        await this.nextEvent();
        continue;
      }
      const [entry] = this.buffer.splice(index, 1);
      this.launch(entry!);
    }
  }

  /**
   * Reads the run's sitemaps beside its pages (run-sitemaps.ts). Each sitemap fetch takes one of
   * the run's concurrent requests (granted by the loop ahead of the next page), so
   * base_concurrent_requests holds for both; the reading stops once the documents limit is
   * reached, and a stop or drain aborts the fetch in progress.
   */
  private startSitemaps(): void {
    if (!readsSitemaps(this.settings, this.scope)) return;
    const limit = this.settings.documentsLimit;
    const signal = AbortSignal.any([this.waitSignal, this.sitemapSlot.signal]);
    const sitemapPolicy: PageFetchPolicy = {
      headersFor: (url) => this.headersFor(url),
      refuseRedirect: async () => undefined,
      acceptsContentType: () => true,
    };
    const sitemapLimits = { ...this.deps.limits, maxBodyBytes: MAX_SITEMAP_BYTES };
    const reading = readRunSitemaps({
      settings: this.settings,
      scope: this.scope,
      store: this.deps.store,
      robotsFor: (url) => this.robots.forUrl(url),
      fetch: async (url) => {
        if (!(await this.sitemapSlot.take())) return stoppedFetch(url);
        try {
          const target = new URL(url);
          // The host's Crawl-delay paces its sitemaps as it paces its pages.
          if (this.settings.obeyRobots) this.noteCrawlDelay(target, await this.robots.forUrl(target));
          const permit = await this.permitFor(target.host, signal);
          if (permit === undefined) return stoppedFetch(url);
          try {
            return await fetchPage(
              pacedFetcher(this.fetcher, permit),
              url,
              sitemapPolicy,
              sitemapLimits,
              signal,
            );
          } finally {
            permit.release();
          }
        } finally {
          this.sitemapSlot.release();
        }
      },
      failureReason: (result, url) =>
        failureReasonOf(result.failure, new URL(url), this.deps.limits.timeoutMs),
      added: (count) => {
        this.progress.total += count;
        if (count > 0) this.wake?.();
      },
      // Rows only ever grow: a page skipped after its start (robots.txt, file type) never makes
      // the reading stop for a limit the run then does not reach.
      stopped: () =>
        signal.aborted || this.failure !== undefined || (limit !== null && this.fetchedRows() >= limit),
    });
    this.sitemapReading = reading
      .catch((error: unknown) => this.fail(error))
      .finally(() => {
        this.sitemapReading = undefined;
        this.wake?.();
      });
  }

  /**
   * The fetch policy of one page: with a stored copy that has validators, its first request asks
   * whether the copy is still current (If-None-Match, If-Modified-Since).
   */
  private policyAsking(fetchUrl: string, stored: PreviousPage | undefined): PageFetchPolicy {
    const conditional = stored === undefined ? undefined : conditionalHeadersOf(stored.headers);
    if (conditional === undefined) return this.policy;
    return {
      ...this.policy,
      headersFor: (url) =>
        url.href === fetchUrl ? { ...this.headersFor(url), ...conditional } : this.headersFor(url),
    };
  }

  /** Rows of fetched URLs: what documents_limit counts (rows never grow back down). */
  private fetchedRows(): number {
    return this.progress.crawled - this.notFetchedRows;
  }

  private fail(error: unknown): void {
    this.failure ??= error;
    this.failed.abort();
  }

  private refill(limit: number): void {
    const more = this.deps.store.nextQueued(this.cursor, limit - this.buffer.length);
    if (more.length === 0) return;
    this.cursor = more[more.length - 1]!.seq;
    this.buffer.push(...more);
  }

  private launch(entry: FrontierEntry): void {
    this.started += 1;
    const host = hostOf(entry.url);
    this.waitingHosts.add(host);
    let waiting = true;
    // The host's next page may be started once this one no longer waits (called once per page).
    const ready = () => {
      if (!waiting) return;
      waiting = false;
      this.waitingHosts.delete(host);
      this.wake?.();
    };
    const task = this.crawlEntry(entry, ready)
      .catch((error: unknown) => this.fail(error))
      .finally(() => {
        ready();
        this.inFlight.delete(task);
        this.wake?.();
      });
    this.inFlight.add(task);
  }

  private async crawlEntry(entry: FrontierEntry, ready: () => void): Promise<void> {
    const url = new URL(entry.url);
    const fetchUrl = fetchUrlOf(url);
    if (this.settings.obeyRobots) {
      // Before the first page of a host: its Crawl-delay paces that page already.
      const robots = await this.robots.forUrl(url);
      this.noteCrawlDelay(url, robots);
      if (this.stopSignal.aborted) return this.notStarted();
      if (!robots.isAllowed(fetchUrl)) {
        // A link robots.txt refuses is simply not crawled; a seed is a row saying why, so a run
        // whose site turned it away does not look like an empty success (docs/reference/
        // crawl-rules.md, Seeds that cannot be fetched). Nothing was fetched: documents_limit
        // does not count it.
        if (entry.depth > 0) return this.skip(entry);
        this.started -= 1;
        const reason =
          robots.unreachable === undefined
            ? 'disallowed by robots.txt'
            : `robots.txt unreachable: ${robots.unreachable}`;
        const crawlMicros = this.deps.clock.nowMicros();
        this.commitPrepared(
          await preparedInline(recordUnanswered(entry, reason, crawlMicros, this.recordContext())),
        );
        return;
      }
    }
    if (this.health.givenUp(url.host)) return this.notFetchedFromGivenUpHost(entry, url.host);
    // The previous run's copy is read before the host's turn, so its pace is not held meanwhile.
    const stored = this.rerendered ? undefined : await this.deps.previous?.pageOf(entry.url);
    // Its sitemap says it has not changed since the site last answered for that copy: no request.
    const unasked = keptWithoutRequest(entry, fetchUrl, stored, this.settings.sitemapLastmodSkipDays, {
      micros: this.deps.clock.nowMicros(),
      store: this.deps.store,
    });
    if (unasked !== undefined && this.acceptsContentType(stored?.headers['content-type'])) {
      ready();
      return this.keepUnasked(unasked.entry, fetchUrl, unasked.result);
    }
    const permit = await this.permitFor(url.host, this.waitSignal);
    ready();
    // Stopped or drained before the request started: the URL stays queued for a resumed run.
    if (permit === undefined) return this.notStarted();
    const startedAtMs = performance.now();
    // The host may have been given up while this page waited for its pause to end.
    if (this.health.givenUp(url.host)) {
      permit.release();
      return this.notFetchedFromGivenUpHost(entry, url.host);
    }
    // The page's body counts against the run's budget until the page is committed.
    const hold = this.bodyBudget.hold();
    try {
      await this.fetchAndCommit(entry, url, fetchUrl, stored, permit, startedAtMs, hold);
    } finally {
      hold.release();
    }
  }

  private async fetchAndCommit(
    entry: FrontierEntry,
    url: URL,
    fetchUrl: string,
    stored: PreviousPage | undefined,
    permit: HostPermit,
    startedAtMs: number,
    hold: BodyHold,
  ): Promise<void> {
    // After a pause, this page may be the probe: the host's other pages wait for its answer.
    const endProbe = this.health.beginProbe(url.host);
    let result: Awaited<ReturnType<typeof fetchPage>>;
    try {
      try {
        result = await fetchPage(
          budgetedFetcher(pacedFetcher(this.fetcher, permit), this.bodyBudget, hold),
          fetchUrl,
          this.policyAsking(fetchUrl, stored),
          this.deps.limits,
          this.stopSignal,
        );
        // Not modified: the page keeps what the previous run stored, and is read from it, unless
        // the setting no longer takes its type (PDF or office files turned off since).
        if (stored !== undefined && result.kind === 'response' && result.status === 304) {
          const contentType = stored.headers['content-type'];
          hold.cover(stored.body?.length ?? 0);
          result = this.acceptsContentType(contentType)
            ? {
                ...result,
                headers: stored.headers,
                body: stored.body,
                kept: true,
                keptSince: stored.storedAt,
              }
            : { kind: 'excluded', contentType: contentType ?? '' };
        }
      } finally {
        permit.release();
      }
      // A fetch cut short by cancel or timeout is not an outcome: the run ends without its row.
      if (this.stopSignal.aborted) return;
      // The answer is the last hop's: a redirect to another host charges that host.
      const answeredBy = result.kind === 'excluded' ? url.host : hostOf(result.finalUrl);
      this.health.pageEnded(answeredBy, result.kind === 'excluded' ? 200 : result.status, startedAtMs);
    } finally {
      endProbe?.();
    }
    if (result.kind === 'excluded') return this.skip(entry);
    const rendering = this.renderContext && (await renderFetchedPage(entry, result, this.renderContext));
    if (this.stopSignal.aborted) return;
    const crawlMicros = this.deps.clock.nowMicros();
    const prepared =
      result.kind === 'failed' && result.status === undefined
        ? await preparedInline(
            recordUnanswered(
              entry,
              failureReasonOf(result.failure, new URL(fetchUrl), this.deps.limits.timeoutMs),
              crawlMicros,
              this.recordContext(),
            ),
          )
        : await this.recorder.record(entry, fetchUrl, result, rendering, crawlMicros);
    if (!this.commitPrepared(prepared)) return;
    this.deps.observer?.pageFetched(result, rendering);
  }

  /**
   * A page kept from the previous run without a request (lastmod-skip.ts): recorded as a 304
   * would be, but it took no turn of its host and tells its health nothing.
   */
  private async keepUnasked(entry: FrontierEntry, fetchUrl: string, kept: FetchedResult): Promise<void> {
    if (this.stopSignal.aborted) return;
    const crawlMicros = this.deps.clock.nowMicros();
    if (!this.commitPrepared(await this.recorder.record(entry, fetchUrl, kept, undefined, crawlMicros)))
      return;
    // A URL row written, as for any page (docs/operations.md, Monitoring).
    this.deps.observer?.pageFetched(kept, undefined);
  }

  /**
   * Waits for the host's pace: the run's download_delay, raised by the host's Crawl-delay
   * (docs/reference/crawl-rules.md, Pacing). Undefined when `signal` aborted first.
   */
  private async permitFor(host: string, signal: AbortSignal): Promise<HostPermit | undefined> {
    if (!(await this.health.waitForTurn(host, signal))) return undefined;
    const gapMs = Math.max(
      this.settings.delaySeconds * 1000,
      this.crawlDelayMs.get(host) ?? 0,
      this.health.gapMs(host),
    );
    try {
      return await this.pace.acquire(host, gapMs, signal);
    } catch (error) {
      if (signal.aborted) return undefined;
      throw error;
    }
  }

  private noteCrawlDelay(url: URL, robots: RobotsPolicy): void {
    if (robots.crawlDelaySeconds !== undefined)
      this.crawlDelayMs.set(url.host, robots.crawlDelaySeconds * 1000);
  }

  /**
   * Every answer a host gives reaches its health, each redirect hop and retry included, so a 429
   * on one URL slows the run's other requests to that host too.
   */
  private observedFetcher(fetcher: HttpFetcher): HttpFetcher {
    return {
      fetchHop: async (hop) => {
        const response = await fetcher.fetchHop(hop);
        this.health.answered(
          hostOf(hop.url),
          response.status,
          parseRetryAfterMs(response.headers['retry-after']),
        );
        return response;
      },
      close: () => fetcher.close(),
    };
  }

  /**
   * A URL of a host given up after its server errors (docs/reference/crawl-rules.md, Slowing
   * down and pausing): a failed row without an answer saying why, which keeps the page of a
   * search index (a page not reached would be removed), and no fetch counted against
   * documents_limit.
   */
  private async notFetchedFromGivenUpHost(entry: FrontierEntry, host: string): Promise<void> {
    this.started -= 1;
    this.notFetchedRows += 1;
    this.health.notFetched(host);
    const reason = `not fetched: ${host} answered with server errors too often and was given up`;
    const crawlMicros = this.deps.clock.nowMicros();
    this.commitPrepared(
      await preparedInline(recordUnanswered(entry, reason, crawlMicros, this.recordContext())),
    );
  }

  /** A page given up before its request: not counted against documents_limit. */
  private notStarted(): void {
    this.started -= 1;
  }

  private recordContext(): { settings: CrawlSettings; timezone: string } {
    return { settings: this.settings, timezone: this.settings.timezone ?? this.deps.timezone };
  }

  /** Commits a page's row, files and links; false when the run stopped before it could. */
  private commitPrepared(prepared: PreparedPage): boolean {
    if (this.stopSignal.aborted) return false;
    const { commit, members } = prepared;
    if (members !== undefined) {
      // Compressed already, so packing the bundle at the end of the run is a copy.
      const bytes = members.reduce((sum, member) => sum + member.length, 0);
      commit.object = { offset: this.deps.spool.append(members), bytes };
    }
    if (!commit.row.ok) {
      this.errors += 1;
      const kind = urlErrorKind(false, commit.row.httpStatus, commit.row.fetchError) ?? 'no answer';
      this.errorKinds[kind] = (this.errorKinds[kind] ?? 0) + 1;
    }
    const added = this.deps.store.commitPage(commit);
    this.progress.crawled += 1;
    this.progress.total += added;
    this.reportProgress();
    return true;
  }

  private skip(entry: FrontierEntry): void {
    this.started -= 1;
    this.deps.store.skip(entry.seq);
    this.progress.total -= 1;
  }

  private reportProgress(): void {
    this.control.onProgress?.({ ...this.progress, errors: this.errors, errorKinds: this.errorKinds });
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
    if (this.health.givenUp(target.host)) return `redirect target's host ${target.host} was given up`;
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

  private nextEvent(): Promise<void> {
    return new Promise((resolve) => {
      const drain = this.control.drainSignal;
      const done = () => {
        this.stopSignal.removeEventListener('abort', done);
        drain?.removeEventListener('abort', done);
        this.wake = undefined;
        resolve();
      };
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

/** A sitemap fetch the run's stop or drain came before. */
function stoppedFetch(url: string): PageFetchResult {
  return {
    kind: 'failed',
    failure: new FetchFailure('cancelled', 'fetch cancelled'),
    finalUrl: url,
    status: undefined,
    headers: {},
  };
}

function hostOf(url: string): string {
  const start = url.indexOf('//') + 2;
  const end = url.indexOf('/', start);
  return url.slice(start, end < 0 ? undefined : end);
}
