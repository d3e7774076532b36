import { Worker } from 'node:worker_threads';
import { ArtifactWriteError } from '../artifacts/index.js';
import type { CrawlOutcome, PreviousRunFiles } from '../crawler/engine.js';
import type { MemberReader, FetchLimits } from '../crawler/index.js';
import type { InstantCrawlerSetting } from '../domain/schemas.js';
import type { CrawlProgress, RunProgress } from '../run-data/index.js';
import { type Clock, systemClock, WarmThreads } from '../util/index.js';
import { BrowserBroker, type BrowserHost } from './browser-host.js';
import { relayBundlePart } from './bundle-part-relay.js';
import type { CrawlExecution, CrawlWorkspace } from './execute-crawl.js';
import type { PaceThreadHost } from './pace-thread-host.js';
import type {
  FromRunThread,
  RunBrowserSettings,
  RunFailure,
  RunStart,
  ToRunThread,
} from './run-thread-protocol.js';

/**
 * A thread that does not end this long after its cancel (or its execution timeout) is stuck in
 * work that does not look at the signal: it is terminated, and the run ends as if it had stopped.
 */
const STUCK_THREAD_MS = 15_000;

/**
 * A run thread's young generation (docs/design/crawl.md, Memory of a long crawl): nearly all it
 * allocates dies young (a page's row, its links on the way to the store), and V8's default young
 * generation for a large heap holds tens of MB of that garbage at any time. Measured on a whole
 * crawl of a large site, the cap cost no rate.
 */
const RUN_THREAD_YOUNG_MB = 8;

/** Told of every page the runs crawl and every thread started for them (the service's metrics). */
export interface RunThreadsObserver {
  /** Pages were crawled, and `failures` of them failed, by kind (see fetchErrorKindOf). */
  pagesObserved(count: number, failures: Readonly<Record<string, number>>): void;
  /** A run thread was started: no thread waited for the run. */
  runThreadStarted(): void;
}

export interface RunThreadsOptions {
  limits: FetchLimits;
  defaultUserAgent: string;
  timezone: string;
  allowPrivateNetworks: boolean | string[];
  /** The old-generation heap of each run thread, in megabytes (KUMO_RUN_HEAP_MB). */
  heapMb: number;
  /** The service's clock: the threads' timestamps are offset to agree with it. */
  clock: Clock;
  /**
   * The thread keeping the per-host pace every run shares; without it (`kumo crawl`, one run) each
   * run paces its hosts on its own.
   */
  pace?: PaceThreadHost;
  /** The shared Chromium, when the service has one. */
  browser?: { host: BrowserHost; settings: RunBrowserSettings };
  observer?: RunThreadsObserver;
  /** Threads kept between runs to take the next one (the runs the service executes at once). */
  keepWarm: number;
}

/** One run as the worker pool hands it over. */
export interface ThreadRun {
  runId: number;
  setting: InstantCrawlerSetting;
  feedsSearch: boolean;
  workspace: CrawlWorkspace;
  deadlineMicros: number;
  packagesOn: ReadonlySet<CrawlOutcome>;
  pageOutcomes: boolean;
  /** Writes run-report.db beside the artifacts, for the run's pages in the console. */
  writeReport: boolean;
  /** The files of the setting's previous run, for conditional requests. */
  previous?: PreviousRunFiles;
  /**
   * Reads a part of the previous run's bundle when it is no local file (object storage): the
   * thread asks for each page's member by message.
   */
  readPreviousBundle?: MemberReader['read'];
}

export interface ThreadRunControl {
  /** Cancel, the shutdown's hard stop: the thread's fetches are aborted. */
  cancelSignal: AbortSignal;
  /** Shutdown: the thread starts no page and finishes those in flight. */
  drainSignal: AbortSignal;
  onProgress(progress: CrawlProgress): void;
}

/**
 * Executes each crawl run in a worker thread, one run per thread at a time (docs/design/crawl.md,
 * Crawl threads), and answers the thread's requests for the shared browser; the host pace it asks
 * of the pace thread directly. A thread that ended its run cleanly waits to take the next one
 * (WarmThreads); one that failed, was cancelled past its stop or ran out of memory is ended. The
 * result is what executeCrawl would have returned; a thread that throws, crashes or runs out of
 * memory rejects with an Error saying so, which ends the run 2040 and nothing else.
 */
export class RunThreads {
  private readonly warm: WarmThreads;

  constructor(private readonly options: RunThreadsOptions) {
    this.warm = new WarmThreads(options.keepWarm);
  }

  execute(run: ThreadRun, control: ThreadRunControl): Promise<CrawlExecution> {
    const { options } = this;
    const start: RunStart = {
      runId: run.runId,
      setting: run.setting,
      feedsSearch: run.feedsSearch,
      workspace: run.workspace,
      limits: options.limits,
      defaultUserAgent: options.defaultUserAgent,
      timezone: options.timezone,
      allowPrivateNetworks: options.allowPrivateNetworks,
      clockOffsetMicros: options.clock.nowMicros() - systemClock.nowMicros(),
      deadlineMicros: run.deadlineMicros,
      packagesOn: [...run.packagesOn],
      pageOutcomes: run.pageOutcomes,
      writeReport: run.writeReport,
      ...(options.browser && { browser: options.browser.settings }),
      ...(run.previous && { previous: run.previous }),
    };
    const thread = this.warm.take() ?? this.startThread();
    const send = (message: ToRunThread) => thread.postMessage(message);
    const browser = options.browser && new BrowserBroker(options.browser.host, send);
    let lastProgress: RunProgress = { crawled: 0, total: 0 };
    return new Promise<CrawlExecution>((resolve, reject) => {
      let settled = false;
      let stuckTimer: NodeJS.Timeout | undefined;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(stuckTimer);
        clearTimeout(deadlineTimer);
        control.cancelSignal.removeEventListener('abort', onCancel);
        control.drainSignal.removeEventListener('abort', onDrain);
        thread.off('message', onMessage);
        thread.off('error', onError);
        thread.off('exit', onExit);
        browser?.close();
        outcome();
      };
      /** The thread sent its run's end, having let go of everything the run used: it may take another. */
      const ended = (outcome: () => void) => {
        if (settled) return;
        settle(outcome);
        this.warm.give(thread);
      };
      /** A thread that did not stop: ended, with what it reported so far and no artifacts. */
      const giveUp = (outcome: CrawlOutcome) => {
        void thread.terminate();
        settle(() =>
          resolve({ outcome, progress: lastProgress, seeds: { seeds: 0, unanswered: [] }, artifacts: [] }),
        );
      };
      const onCancel = () => {
        send({ type: 'cancel' });
        stuckTimer ??= setTimeout(() => giveUp('cancelled'), STUCK_THREAD_MS);
      };
      const onDrain = () => send({ type: 'drain' });
      // The thread times itself out; this is for a thread too busy to look at its timer.
      const untilStuckMs = (run.deadlineMicros - options.clock.nowMicros()) / 1000 + STUCK_THREAD_MS;
      const deadlineTimer = setTimeout(
        () => {
          send({ type: 'cancel' });
          stuckTimer ??= setTimeout(() => giveUp('timed_out'), STUCK_THREAD_MS);
        },
        Math.min(Math.max(0, untilStuckMs), 2 ** 31 - 1),
      );
      deadlineTimer.unref();
      const onMessage = (message: FromRunThread) => {
        switch (message.type) {
          case 'progress':
            lastProgress = { crawled: message.progress.crawled, total: message.progress.total };
            control.onProgress(message.progress);
            return;
          case 'pages':
            options.observer?.pagesObserved(message.count, message.failures);
            return;
          case 'result':
            ended(() => resolve(message.result));
            return;
          case 'failed':
            ended(() => reject(errorOf(message.failure)));
            return;
          case 'bundle-part-read':
            relayBundlePart(message, run.readPreviousBundle, send);
            return;
          default:
            browser?.handle(message);
        }
      };
      const onError = (error: Error) => {
        void thread.terminate();
        settle(() => reject(threadError(error, options.heapMb)));
      };
      const onExit = (code: number) =>
        settle(() => reject(new Error(`the run's thread exited (code ${code}) before the run ended`)));
      thread.on('message', onMessage);
      thread.on('error', onError);
      thread.on('exit', onExit);
      control.cancelSignal.addEventListener('abort', onCancel, { once: true });
      control.drainSignal.addEventListener('abort', onDrain, { once: true });
      const pacePort = options.pace?.connect();
      thread.postMessage(
        { type: 'start', run: start, ...(pacePort && { pacePort }) } satisfies ToRunThread,
        pacePort ? [pacePort] : [],
      );
      if (control.drainSignal.aborted) onDrain();
      if (control.cancelSignal.aborted) onCancel();
    });
  }

  /**
   * Ends the waiting threads and stops the shared browser and the pace thread (the service is
   * stopping, its runs have ended).
   */
  async close(): Promise<void> {
    await Promise.all([this.warm.close(), this.options.browser?.host.close(), this.options.pace?.close()]);
  }

  private startThread(): Worker {
    this.options.observer?.runThreadStarted();
    return new Worker(new URL('./run-thread.js', import.meta.url), {
      resourceLimits: {
        maxOldGenerationSizeMb: this.options.heapMb,
        maxYoungGenerationSizeMb: RUN_THREAD_YOUNG_MB,
      },
    });
  }
}

/** The run's failure as the error the worker pool turns into its 2040 message. */
function errorOf(failure: RunFailure): Error {
  if (failure.name === 'ArtifactWriteError') return new ArtifactWriteError(failure.message);
  const error = new Error(failure.message);
  if (failure.code !== undefined) Object.assign(error, { code: failure.code });
  return error;
}

function threadError(error: Error, heapMb: number): Error {
  if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY')
    return new Error(`the run ran out of memory (limit ${heapMb} MB)`);
  return new Error(`the run's thread failed: ${error.message}`);
}
