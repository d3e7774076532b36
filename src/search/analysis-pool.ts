import { availableParallelism } from 'node:os';
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
/** More workers than this would only queue behind each other on the machines Kumo runs on. */
const MAX_WORKERS = 4;

interface Job {
  pages: readonly PageToIndex[];
  resolve: (batch: AnalyzedBatch) => void;
}

/** What a worker sends back for a batch (analysis-worker.ts). */
export interface WorkerReply {
  packed: PackedPages;
  /** BatchAnalysis.extracted. */
  extracted: (IndexedDocument | null | undefined)[];
}

/**
 * Analyzes batches of documents in worker threads (one per core, at most four), extracting the
 * text of HTML pages first, so that the thread writing the index works while the next batches
 * are read and analyzed. A batch whose worker fails
 * (it could not start, or died) is analyzed on the calling thread instead: slower, never lost,
 * and no worker is started again.
 */
export class AnalysisPool {
  readonly size: number;
  private readonly idle: Worker[] = [];
  private readonly all: Worker[] = [];
  private readonly queue: Job[] = [];
  private broken = false;

  constructor(size = Math.min(MAX_WORKERS, Math.max(1, availableParallelism()))) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`AnalysisPool size must be a positive integer, got ${size}`);
    this.size = size;
  }

  /** The documents of the pages (HTML pages' extracted) with their analyzed fields and phrases, in order. */
  analyze(pages: readonly PageToIndex[]): Promise<AnalyzedBatch> {
    return new Promise((resolve) => {
      this.queue.push({ pages, resolve });
      this.startJobs();
    });
  }

  async close(): Promise<void> {
    const workers = this.all.splice(0);
    this.idle.length = 0;
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private startJobs(): void {
    while (this.queue.length > 0) {
      if (this.broken) {
        const job = this.queue.shift()!;
        job.resolve(analyzedHere(job.pages));
        continue;
      }
      const worker = this.idle.pop() ?? (this.all.length < this.size ? this.spawn() : undefined);
      if (worker === undefined) return;
      this.run(worker, this.queue.shift()!);
    }
  }

  private run(worker: Worker, job: Job): void {
    // Referenced while a batch is out, so the process waits for it; unreferenced when idle.
    worker.ref();
    const cleanup = () => {
      worker.unref();
      worker.off('message', onMessage);
      worker.off('error', onFailure);
      worker.off('exit', onFailure);
    };
    const onMessage = ({ packed, extracted }: WorkerReply) => {
      cleanup();
      job.resolve(analyzedBatchOf(job.pages, { extracted, analyzed: unpackPages(packed) }));
      this.idle.push(worker);
      this.startJobs();
    };
    const onFailure = () => {
      cleanup();
      this.broken = true;
      void worker.terminate();
      this.all.splice(this.all.indexOf(worker), 1);
      job.resolve(analyzedHere(job.pages));
      this.startJobs();
    };
    worker.on('message', onMessage);
    worker.on('error', onFailure);
    worker.on('exit', onFailure);
    // Analysis reads no links: a document's link targets (up to thousands) are not copied over.
    worker.postMessage(job.pages.map(withoutLinks));
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER_URL);
    worker.unref();
    this.all.push(worker);
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
