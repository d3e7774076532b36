import { Worker } from 'node:worker_threads';
import type { ExtractableKind } from './extractable-kind.js';

export interface ExtractionJob {
  bytes: Uint8Array;
  kind: ExtractableKind;
  maxChars: number;
}

/** What the worker is sent: the job, and the time by which it stops reading and answers with what it has. */
export interface ExtractionRequest extends ExtractionJob {
  stopReadingAt: number;
}

export type ExtractionReply = { ok: true; title: string; body: string } | { ok: false; reason: string };

interface Pending {
  job: ExtractionJob;
  timeoutMs: number;
  resolve: (reply: ExtractionReply) => void;
}

const WORKER_URL = new URL('./extraction-worker.js', import.meta.url);
/** Heap ceiling of the worker: a document that needs more fails alone instead of taking the process down. */
const MAX_HEAP_MB = 1024;
/** Share of the time limit after which extractors stop reading, so a slow document still gives its start. */
const STOP_READING_SHARE = 0.75;
/** An idle worker is let go after this, giving back the memory its parsers hold. */
const IDLE_MS = 30_000;

/**
 * Runs extractions one at a time in a worker thread, each for at most its time limit. A parser
 * that loops, overflows its heap or crashes costs only its own job: the worker is killed and the
 * next job gets a fresh one. The threads are shared between owners by extraction-pool.ts.
 */
export class ExtractionSandbox {
  private worker: Worker | undefined;
  private running: Pending | undefined;
  private readonly queue: Pending[] = [];
  private timeout: NodeJS.Timeout | undefined;
  private idle: NodeJS.Timeout | undefined;

  run(job: ExtractionJob, timeoutMs: number): Promise<ExtractionReply> {
    return new Promise((resolve) => {
      this.queue.push({ job, timeoutMs, resolve });
      this.startNext();
    });
  }

  private startNext(): void {
    if (this.running) return;
    const next = this.queue.shift();
    if (!next) return;
    clearTimeout(this.idle);
    this.running = next;
    const worker = this.worker ?? this.spawn();
    // Unlike the worker, which is unref'd, this timer keeps the process alive until the job answers.
    this.timeout = setTimeout(
      () => this.settle({ ok: false, reason: `timed out after ${next.timeoutMs} ms` }, true),
      next.timeoutMs,
    );
    const request: ExtractionRequest = {
      ...next.job,
      stopReadingAt: Date.now() + next.timeoutMs * STOP_READING_SHARE,
    };
    worker.postMessage(request);
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: MAX_HEAP_MB } });
    worker.on('message', (reply: ExtractionReply) => {
      if (worker === this.worker) this.settle(reply, false);
    });
    worker.on('error', (error: Error) => {
      if (worker === this.worker) this.settle({ ok: false, reason: error.message }, true);
    });
    worker.on('exit', (code: number) => {
      if (worker !== this.worker) return;
      this.settle({ ok: false, reason: `extraction worker exited (${code})` }, true);
    });
    // After the listeners, which would ref the worker's port again: an idle worker must not keep the process up.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  /** Answers the running job; a worker in an unknown state is dropped rather than reused. */
  private settle(reply: ExtractionReply, dropWorker: boolean): void {
    clearTimeout(this.timeout);
    const done = this.running;
    this.running = undefined;
    if (dropWorker) this.dropWorker();
    done?.resolve(reply);
    if (this.queue.length > 0) this.startNext();
    else if (this.worker) this.idle = setTimeout(() => this.dropWorker(), IDLE_MS).unref();
  }

  private dropWorker(): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
  }
}
