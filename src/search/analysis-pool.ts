import { Worker } from 'node:worker_threads';
import { type PackedPages, unpackPages } from './analyzed-pages-wire.js';
import {
  type AnalyzedBatch,
  analyzeBatch,
  analyzedBatchOf,
  isHtmlPage,
  type PageToIndex,
} from './html-page.js';
import type { IndexedDocument } from './indexed-document.js';

const WORKER_URL = new URL('./analysis-worker.js', import.meta.url);
/**
 * The young generation of an analysis thread: what it allocates dies with its batch, and V8's
 * default for a large heap keeps tens of MB of that garbage per thread.
 */
const ANALYSIS_YOUNG_MB = 8;
/**
 * Threads that fail before they start running this many times in a row mean threads cannot run
 * here at all: batches are then analyzed on the calling thread.
 */
const START_FAILURES_TO_GIVE_UP = 2;

export interface AnalysisLimits {
  /** Analysis threads (IndexingBudget.analysisThreads). */
  threads: number;
  /** The old-generation heap of each analysis thread, in MB (the indexing budget's share). */
  heapMb: number;
  /**
   * The heap of the one thread that analyzes, alone and one at a time, a page that ran its
   * thread out of memory (IndexingBudget.largePageHeapMb).
   */
  largePageHeapMb: number;
  /** A batch whose analysis runs longer than this, once its thread runs, is stopped (ms). */
  batchTimeoutMs: number;
}

/** What a worker sends back for a batch (analysis-worker.ts). */
export interface WorkerReply {
  packed: PackedPages;
  /** BatchAnalysis.extracted. */
  extracted: (IndexedDocument | null | undefined)[];
}

interface Job {
  pages: readonly PageToIndex[];
  resolve: (batch: AnalyzedBatch) => void;
}

/** Why a thread ended before answering a batch: out of memory, out of time, or an error. */
type ThreadLoss = { kind: 'memory' } | { kind: 'time' } | { kind: 'error'; message: string };

/**
 * Analyzes batches of documents in worker threads, extracting the text of HTML pages first, so
 * that the thread writing the index works while the next batches are read and analyzed
 * (docs/design/search-engine.md, Analysis off the writing thread).
 *
 * Each thread has a bounded heap and each batch a time limit: tenants' pages and content
 * selectors are analyzed here. A batch whose thread runs out of memory or time (or dies) is
 * split in two and each half analyzed again in a new thread, down to the one page that does
 * it. That page, when it ran out of memory, is analyzed alone in a thread of a larger heap, one
 * such page at a time; a page that still cannot be analyzed is left out of the batch as failed,
 * with the reason. The other pages are indexed and the pool goes on. Only when threads cannot
 * start at all are batches analyzed on the calling thread.
 */
export class AnalysisPool {
  private readonly idle: Worker[] = [];
  private readonly all: Worker[] = [];
  private readonly queue: Job[] = [];
  /** Lone pages that ran their thread out of memory, for the large-page thread. */
  private readonly largeQueue: Job[] = [];
  private largeWorker: Worker | undefined;
  private readonly started = new WeakSet<Worker>();
  private broken = false;
  private closed = false;
  private startFailures = 0;
  private lost = 0;
  /** Threads ended and not gone yet, their heaps still held: threads start again once they are. */
  private readonly endings = new Set<Promise<void>>();

  constructor(private readonly limits: AnalysisLimits) {
    if (!Number.isInteger(limits.threads) || limits.threads < 1)
      throw new RangeError(`AnalysisPool threads must be a positive integer, got ${limits.threads}`);
  }

  get size(): number {
    return this.limits.threads;
  }

  /** Threads alive: the pool's, the large-page thread, and those ending. */
  get threadsAlive(): number {
    return this.all.length + (this.largeWorker === undefined ? 0 : 1) + this.endings.size;
  }

  /** Whether the large-page thread is analyzing a page. */
  get analyzingLargePage(): boolean {
    return this.largeWorker !== undefined;
  }

  /** Threads that ended before answering their batch (out of memory, out of time, or died). */
  get threadsLost(): number {
    return this.lost;
  }

  /**
   * The documents of the pages (HTML pages' extracted) with their analyzed fields and phrases, in
   * order; a page whose analysis could not finish is in `failed`.
   */
  analyze(pages: readonly PageToIndex[]): Promise<AnalyzedBatch> {
    return new Promise((resolve) => {
      this.queue.push({ pages, resolve });
      this.startJobs();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const workers = this.all.splice(0);
    if (this.largeWorker !== undefined) workers.push(this.largeWorker);
    this.idle.length = 0;
    await Promise.all([...workers.map((worker) => worker.terminate()), ...this.endings]);
  }

  private startJobs(): void {
    if (this.closed) return;
    // Without threads, the large pages waiting for theirs are analyzed here like the rest.
    if (this.broken) this.queue.push(...this.largeQueue.splice(0));
    if (this.largeWorker !== undefined || this.largeQueue.length > 0) {
      this.startLargePage();
      return;
    }
    if (this.endings.size > 0 && !this.broken) return;
    while (this.queue.length > 0) {
      if (this.broken) {
        const job = this.queue.shift()!;
        job.resolve(analyzedHere(job.pages));
        continue;
      }
      let worker = this.idle.pop();
      if (worker === undefined && this.all.length < this.size) {
        worker = this.spawn(this.limits.heapMb);
        this.all.push(worker);
      }
      if (worker === undefined) return;
      this.run(worker, this.queue.shift()!, true);
    }
  }

  /**
   * A large page takes the share of all the analysis threads (IndexingBudget.largePageHeapMb):
   * no batch starts while one waits or runs, the pool's threads end as they finish theirs, and
   * the page's thread starts once they are gone. The pool's threads start again after it.
   */
  private startLargePage(): void {
    for (const worker of this.idle.splice(0)) {
      this.all.splice(this.all.indexOf(worker), 1);
      this.endThread(worker);
    }
    if (this.largeWorker !== undefined || this.all.length > 0 || this.endings.size > 0) return;
    const worker = this.spawn(this.limits.largePageHeapMb);
    this.largeWorker = worker;
    this.run(worker, this.largeQueue.shift()!, false);
  }

  /** Ends a thread; threads start again only once it is gone, its heap returned. */
  private endThread(worker: Worker): void {
    const ended: Promise<void> = worker
      .terminate()
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        this.endings.delete(ended);
        this.startJobs();
      });
    this.endings.add(ended);
  }

  /** Runs `job` on `worker`: one of the pool's (`pooled`), or the large-page thread, ended after. */
  private run(worker: Worker, job: Job, pooled: boolean): void {
    // Referenced while a batch is out, so the process waits for it; unreferenced when idle.
    worker.ref();
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    // The time limit is the analysis's: a new thread's start is not counted.
    const startClock = () => {
      timer = setTimeout(() => {
        timedOut = true;
        void worker.terminate();
      }, this.limits.batchTimeoutMs);
    };
    const cleanup = () => {
      clearTimeout(timer);
      worker.unref();
      worker.off('online', startClock);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (!pooled) {
        this.largeWorker = undefined;
        this.endThread(worker);
      }
    };
    const onMessage = ({ packed, extracted }: WorkerReply) => {
      cleanup();
      job.resolve(analyzedBatchOf(job.pages, { extracted, analyzed: unpackPages(packed) }));
      // A thread whose answer came as its time ran out is ending: it takes no other batch.
      if (pooled && !timedOut) this.idle.push(worker);
      else if (pooled) {
        this.all.splice(this.all.indexOf(worker), 1);
        this.endThread(worker);
      }
      this.startJobs();
    };
    const onError = (error: Error & { code?: string }) =>
      lose(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? { kind: 'memory' }
          : { kind: 'error', message: error.message },
      );
    const onExit = () => lose(timedOut ? { kind: 'time' } : { kind: 'error', message: 'the thread exited' });
    const lose = (loss: ThreadLoss) => {
      cleanup();
      // Threads ended by close are not lost: nothing waits for their batches any more.
      if (this.closed) return;
      // The large-page thread was ended by cleanup.
      if (pooled) {
        this.all.splice(this.all.indexOf(worker), 1);
        this.endThread(worker);
      }
      this.lost += 1;
      if (!this.started.has(worker) && ++this.startFailures >= START_FAILURES_TO_GIVE_UP) this.broken = true;
      this.retry(job, loss, pooled);
      this.startJobs();
    };
    if (this.started.has(worker)) startClock();
    else worker.once('online', startClock);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    // Analysis reads no links: a document's link targets (up to thousands) are not copied over.
    worker.postMessage(job.pages.map(withoutLinks));
  }

  /**
   * A batch whose thread was lost, analyzed again in two halves ahead of the queue; a lone page
   * out of memory goes to the large-page thread, and is left out with the reason when that
   * fails too (or when it ran out of time). Under `broken`, startJobs analyzes them here.
   */
  private retry(job: Job, loss: ThreadLoss, pooled: boolean): void {
    if (this.broken) {
      this.queue.unshift(job);
      return;
    }
    if (job.pages.length === 1) {
      if (loss.kind === 'memory' && pooled && this.limits.largePageHeapMb > this.limits.heapMb)
        this.largeQueue.push(job);
      else job.resolve(failedBatch(job.pages[0]!.url, this.reasonOf(loss)));
      return;
    }
    const middle = Math.ceil(job.pages.length / 2);
    const halves = [job.pages.slice(0, middle), job.pages.slice(middle)].map(
      (pages) => new Promise<AnalyzedBatch>((resolve) => this.queue.unshift({ pages, resolve })),
    );
    // unshift put the second half first: swap so that the first half is taken first.
    [this.queue[0], this.queue[1]] = [this.queue[1]!, this.queue[0]!];
    void Promise.all(halves).then(([first, second]) => job.resolve(joinedBatches(first!, second!)));
  }

  private reasonOf(loss: ThreadLoss): string {
    if (loss.kind === 'memory')
      return `its analysis needs more than the ${this.limits.largePageHeapMb} MB a large page's analysis may use (the analysis threads' share of KUMO_INDEX_MEMORY_MB)`;
    if (loss.kind === 'time') return `its analysis took longer than ${this.limits.batchTimeoutMs / 1000} s`;
    return `its analysis failed: ${loss.message}`;
  }

  private spawn(heapMb: number): Worker {
    const worker = new Worker(WORKER_URL, {
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: ANALYSIS_YOUNG_MB },
    });
    worker.once('online', () => {
      this.started.add(worker);
      this.startFailures = 0;
    });
    worker.unref();
    return worker;
  }
}

function withoutLinks(page: PageToIndex): PageToIndex {
  if (isHtmlPage(page) || page.linksTo === undefined) return page;
  const { linksTo: _linksTo, ...rest } = page;
  return rest;
}

/** A batch analyzed on this thread, when the workers cannot. */
function analyzedHere(pages: readonly PageToIndex[]): AnalyzedBatch {
  return analyzedBatchOf(pages, analyzeBatch(pages));
}

function failedBatch(url: string, reason: string): AnalyzedBatch {
  return { documents: [], analyzed: [], noindex: [], failed: [{ url, reason }] };
}

function joinedBatches(first: AnalyzedBatch, second: AnalyzedBatch): AnalyzedBatch {
  return {
    documents: [...first.documents, ...second.documents],
    analyzed: [...first.analyzed, ...second.analyzed],
    noindex: [...first.noindex, ...second.noindex],
    failed: [...first.failed, ...second.failed],
  };
}
