import { Worker } from 'node:worker_threads';
import { FACET_THREAD_READY, type FacetJobReply, type FacetJobRequest } from './facet-job.js';

const WORKER_URL = new URL('./facet-worker.js', import.meta.url);

/**
 * Longest a facet job may run. Ordinary rules take well under a millisecond per URL (200 rules of
 * about a microsecond each), so a job of FACET_JOB_URLS URLs takes a second at most even on a busy
 * machine; rules written to defeat RE2's automaton take about 80 ms per rule on an 8 KB URL
 * (docs/architecture.md, URL patterns), and are stopped here.
 */
export const FACET_JOB_LIMIT_MS = 10_000;
/**
 * Threads: one service's jobs run one at a time, so with two threads another service's job
 * starts at once while one service's job runs up to its limit.
 */
const FACET_THREADS = 2;

export interface FacetPoolOptions {
  threads?: number;
  jobLimitMs?: number;
}

interface Pending {
  request: FacetJobRequest;
  /** Asked before the job starts: false once its result is no longer of use (rules changed, or failed). */
  wanted: () => boolean;
  resolve: (reply: FacetJobReply) => void;
}

interface Slot {
  worker: Worker | undefined;
  /** The thread has loaded its modules (its first message): a job's limit counts from then. */
  ready: boolean;
  /** The job in the thread; its timer is armed once the thread is ready. */
  running: { owner: string; pending: Pending; timer: NodeJS.Timeout | undefined } | undefined;
}

/**
 * Runs facet jobs (facet-job.ts) in a few threads. Jobs of one owner (a search service) run one
 * at a time, in order; owners take turns. A job that runs past its limit has its thread
 * terminated (a fresh one takes the next job) and answers `{ ok: false }`, as does one whose
 * thread fails; run never rejects.
 */
export class FacetPool {
  readonly jobLimitMs: number;
  private readonly slots: Slot[];
  /** Waiting jobs by owner; an owner moves to the end when one of its jobs starts. */
  private readonly waiting = new Map<string, Pending[]>();
  private closed = false;

  constructor(options: FacetPoolOptions = {}) {
    const threads = options.threads ?? FACET_THREADS;
    this.jobLimitMs = options.jobLimitMs ?? FACET_JOB_LIMIT_MS;
    if (!Number.isInteger(threads) || threads < 1)
      throw new RangeError(`FacetPool threads must be a positive integer, got ${threads}`);
    if (!(this.jobLimitMs > 0))
      throw new RangeError(`FacetPool jobLimitMs must be positive, got ${this.jobLimitMs}`);
    this.slots = Array.from({ length: threads }, () => ({
      worker: undefined,
      ready: false,
      running: undefined,
    }));
  }

  run(owner: string, request: FacetJobRequest, wanted: () => boolean = () => true): Promise<FacetJobReply> {
    return new Promise((resolve) => {
      if (this.closed) {
        resolve({ ok: false, reason: 'the facet threads are closed' });
        return;
      }
      const queue = this.waiting.get(owner);
      if (queue === undefined) this.waiting.set(owner, [{ request, wanted, resolve }]);
      else queue.push({ request, wanted, resolve });
      this.startJobs();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const queue of this.waiting.values())
      for (const pending of queue) pending.resolve({ ok: false, reason: 'the facet threads are closed' });
    this.waiting.clear();
    const workers: Worker[] = [];
    for (const slot of this.slots) {
      if (slot.running !== undefined)
        this.settle(slot, { ok: false, reason: 'the facet threads are closed' }, true);
      if (slot.worker !== undefined) workers.push(slot.worker);
      slot.worker = undefined;
    }
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private startJobs(): void {
    for (const slot of this.slots) {
      if (slot.running !== undefined) continue;
      const next = this.nextJob();
      if (next === undefined) return;
      this.start(slot, next.owner, next.pending);
    }
  }

  /** The first wanted job of the owner waiting longest that has no job running. */
  private nextJob(): { owner: string; pending: Pending } | undefined {
    const busy = new Set(this.slots.flatMap((slot) => (slot.running ? [slot.running.owner] : [])));
    for (const [owner, queue] of this.waiting) {
      if (busy.has(owner)) continue;
      let pending: Pending | undefined;
      while ((pending = queue.shift()) !== undefined && !pending.wanted())
        pending.resolve({ ok: false, reason: 'no longer wanted' });
      this.waiting.delete(owner);
      if (queue.length > 0) this.waiting.set(owner, queue);
      if (pending !== undefined) return { owner, pending };
    }
    return undefined;
  }

  private start(slot: Slot, owner: string, pending: Pending): void {
    const worker = slot.worker ?? this.spawn(slot);
    slot.running = { owner, pending, timer: undefined };
    // An idle thread is unref'd; one with a job keeps the process alive until the job answers.
    worker.ref();
    if (slot.ready) this.armLimit(slot);
    worker.postMessage(pending.request);
  }

  /**
   * Starts the running job's limit. A fresh thread's start (loading its modules, slow on a busy
   * machine) is not the rules' cost: counting it could take a service's facets away for nothing.
   */
  private armLimit(slot: Slot): void {
    if (slot.running === undefined || slot.running.timer !== undefined) return;
    slot.running.timer = setTimeout(() => {
      this.settle(slot, { ok: false, reason: `matching took over ${this.jobLimitMs / 1000} s` }, true);
    }, this.jobLimitMs);
  }

  private spawn(slot: Slot): Worker {
    const worker = new Worker(WORKER_URL);
    slot.ready = false;
    worker.on('message', (reply: FacetJobReply | typeof FACET_THREAD_READY) => {
      if (worker !== slot.worker) return;
      if (reply === FACET_THREAD_READY) {
        slot.ready = true;
        this.armLimit(slot);
      } else {
        this.settle(slot, reply, false);
      }
    });
    worker.on('error', (error: Error) => {
      if (worker === slot.worker)
        this.settle(slot, { ok: false, reason: `facet thread failed: ${error.message}` }, true);
    });
    worker.on('exit', (code: number) => {
      if (worker === slot.worker)
        this.settle(slot, { ok: false, reason: `facet thread exited (${code})` }, true);
    });
    // After the listeners, which would ref the worker's port again: an idle thread must not keep the process up.
    worker.unref();
    slot.worker = worker;
    return worker;
  }

  /** Answers the slot's job; a thread in an unknown state (stopped mid-job, failed) is dropped, not reused. */
  private settle(slot: Slot, reply: FacetJobReply, dropWorker: boolean): void {
    const running = slot.running;
    if (running === undefined) return;
    clearTimeout(running.timer);
    slot.running = undefined;
    if (dropWorker) {
      void slot.worker?.terminate();
      slot.worker = undefined;
      slot.ready = false;
    } else {
      slot.worker?.unref();
    }
    running.pending.resolve(reply);
    if (!this.closed) this.startJobs();
  }
}
