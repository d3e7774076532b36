import { availableParallelism } from 'node:os';
import { resourceLimits, Worker } from 'node:worker_threads';
import { bundleMembersOf } from '../artifacts/index.js';
import type { CrawlSettings } from '../domain/index.js';
import type { FrontierEntry } from '../run-data/index.js';
import { IdentityCache } from './identity-cache.js';
import { type FetchedResult, type PageRecordContext, type RecordedPage, recordPage } from './page-record.js';
import {
  type FromPageThread,
  type PageThreadReply,
  type PreparedPage,
  recordSettingsData,
  type ToPageThread,
} from './page-record-job.js';
import type { RenderOutcome } from './page-rendering.js';
import { CrawlScope } from './scope.js';
import { WarmThreads } from '../util/index.js';

const THREAD_URL = new URL('./page-record-thread.js', import.meta.url);

/**
 * The page thread's heap, in megabytes (docs/design/crawl.md, Memory of a long crawl). V8 lets a
 * heap grow past what survived its last full collection by a factor that rises with the heap's
 * limit, and a page thread's work is nearly all garbage (a page's text, its parsed links): under
 * the process's default limit of several GB the thread held some 100 MB for 10 MB of live data on
 * rust-doc's source listings, and the crawl's peak RSS was 70–80 MB higher than under this cap. A
 * page at the body limit (32 MiB, 400,000 links) is prepared within it; one that is not is
 * prepared again on the run's thread, as any page the thread fails.
 */
const PAGE_THREAD_HEAP_MB = 256;
/** Its young generation: a page's garbage dies young, and a small one collects it as well. */
const PAGE_THREAD_YOUNG_MB = 8;

/**
 * The page thread of this thread's last run, kept for the next (a run thread serves one run at a
 * time, so one is enough): its code is loaded once, not once per run.
 */
const spareThreads = new WarmThreads(1);

/**
 * Turns a run's fetched pages into what it commits (page-record.ts: row, links to follow, bundle
 * files compressed). With more than one core this happens in a thread of the run's own, so parsing
 * and compressing one page overlaps fetching and committing others (docs/design/crawl.md, Crawl
 * threads). Until the thread has loaded its code, pages are prepared on the calling thread, so
 * the run's first pages never wait for it. When the thread fails or exits, the pages it held and
 * every later one are prepared on the calling thread: a crawl never fails for want of its page
 * thread.
 */
export class PageRecorder {
  private readonly context: PageRecordContext;
  private worker: Worker | undefined;
  private waiting: ((reply: PageThreadReply | undefined) => void)[] = [];
  private threaded: boolean;
  /** The thread has loaded its code: pages go to it from then on. */
  private threadReady = false;
  private readyWaiters: ((ready: boolean) => void)[] = [];
  private threadPages = 0;

  /** Pages the thread prepared (the rest were prepared on the calling thread). */
  get preparedInThread(): number {
    return this.threadPages;
  }

  constructor(
    private readonly settings: CrawlSettings,
    private readonly timezone: string,
    threaded = availableParallelism() > 1,
  ) {
    this.threaded = threaded;
    this.context = {
      settings,
      scope: new CrawlScope(settings),
      knownIdentities: new IdentityCache(),
      timezone,
    };
  }

  /** Starts the thread ahead of the first page, so its start overlaps the run's first fetches. */
  start(): void {
    if (this.threaded && this.worker === undefined) this.spawn();
  }

  /**
   * Resolves true once pages go to the thread (starting it), false when they are prepared on the
   * calling thread (one core, or the thread failed or was closed).
   */
  ready(): Promise<boolean> {
    this.start();
    if (this.threadReady || !this.threaded) return Promise.resolve(this.threadReady);
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  async record(
    entry: FrontierEntry,
    fetchedUrl: string,
    result: FetchedResult,
    rendering: RenderOutcome | undefined,
    crawlMicros: number,
  ): Promise<PreparedPage> {
    const worker = this.threaded ? (this.worker ?? this.spawn()) : undefined;
    if (worker !== undefined && this.threadReady) {
      const message: ToPageThread = { type: 'page', entry, fetchedUrl, result, rendering, crawlMicros };
      const reply = await new Promise<PageThreadReply | undefined>((resolve) => {
        try {
          worker.postMessage(message);
        } catch {
          // Something of the page that cannot cross threads (a failure's cause): prepared here.
          resolve(undefined);
          return;
        }
        this.waiting.push(resolve);
      });
      if (reply?.ok === true) {
        this.threadPages += 1;
        return reply.page;
      }
      // A page the thread could not prepare is prepared here: the same error, if any, fails the
      // run as it would have without the thread.
    }
    const recorded = recordPage(entry, fetchedUrl, result, rendering, crawlMicros, this.context);
    for (const identity of recorded.discoveredIdentities) this.context.knownIdentities.add(identity);
    return preparedInline(recorded);
  }

  /**
   * Lets go of the thread: kept for the next run when it answered every page it was given (no
   * answer of this run can then reach the next), ended otherwise.
   */
  async close(): Promise<void> {
    this.threaded = false;
    const worker = this.worker;
    const reusable = this.threadReady && this.waiting.length === 0;
    this.drop();
    if (worker === undefined) return;
    worker.removeAllListeners('message').removeAllListeners('error').removeAllListeners('exit');
    if (reusable) spareThreads.give(worker);
    else await worker.terminate();
  }

  private spawn(): Worker | undefined {
    // A run thread's smaller heap limit (KUMO_RUN_HEAP_MB) holds for its page thread too: a page
    // that exhausts it there is prepared again here and ends the run as it would have without the
    // thread.
    const heapMb = Math.min(
      resourceLimits.maxOldGenerationSizeMb ?? PAGE_THREAD_HEAP_MB,
      PAGE_THREAD_HEAP_MB,
    );
    const spare = spareThreads.take();
    let worker: Worker;
    try {
      worker =
        spare ??
        new Worker(THREAD_URL, {
          resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: PAGE_THREAD_YOUNG_MB },
        });
    } catch {
      // No thread to be had (out of memory, thread limits): every page is prepared here.
      this.threaded = false;
      this.answerReady();
      return undefined;
    }
    const start: ToPageThread = {
      type: 'start',
      settings: recordSettingsData(this.settings),
      timezone: this.timezone,
    };
    worker.postMessage(start);
    worker.on('message', (message: FromPageThread) => {
      if (worker !== this.worker) return;
      if (message.type === 'answer') {
        this.waiting.shift()?.(message.reply);
        return;
      }
      this.threadReady = true;
      this.answerReady();
    });
    const fail = () => {
      if (worker !== this.worker) return;
      this.threaded = false;
      this.drop();
      void worker.terminate();
    };
    worker.on('error', fail);
    worker.on('exit', fail);
    this.worker = worker;
    if (spare !== undefined) {
      // Its code is loaded: it takes pages at once, after the start message that sets this run.
      this.threadReady = true;
      this.answerReady();
    }
    return worker;
  }

  /** Forgets the thread: the pages it held are answered undefined and prepared by the caller. */
  private drop(): void {
    const waiting = this.waiting;
    this.worker = undefined;
    this.threadReady = false;
    this.waiting = [];
    for (const answer of waiting) answer(undefined);
    this.answerReady();
  }

  private answerReady(): void {
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const resolve of waiters) resolve(this.threadReady);
  }
}

/**
 * A recorded page prepared on the calling thread: its files compressed on libuv's pool. Also for
 * pages without a response to parse (no answer, robots.txt), which never go to the thread.
 */
export async function preparedInline(recorded: RecordedPage): Promise<PreparedPage> {
  const members = recorded.bundleFiles && (await bundleMembersOf(recorded.bundleFiles));
  return { commit: recorded.commit, members };
}
