import { Worker } from 'node:worker_threads';

/** A pool thread's first message: its modules are loaded and it takes jobs (tenant-work-thread.ts). */
export const TENANT_THREAD_READY = 'ready';

/**
 * Why a job of a TenantWorkPool gave no answer of its thread: it ran past its limit, its owner had
 * too many jobs waiting, its thread failed, the pool closed, or it was no longer wanted when its
 * turn came. `reason` says it in words (docs/security.md, Tenant work off the API thread).
 */
export interface TenantWorkFailure {
  ok: false;
  failure: 'over_limit' | 'queue_full' | 'thread_failed' | 'closed' | 'unwanted';
  reason: string;
}

export interface TenantWorkPoolOptions {
  /** The thread's module: it calls serveTenantWork (tenant-work-thread.ts) with its job handler. */
  worker: URL;
  /** What the pool's threads do, as failures name them ("facet", "pattern check"). */
  name: string;
  threads: number;
  /** Longest a job may run, counted from when its thread is ready. */
  jobLimitMs: number;
  /** Most jobs of one owner waiting for its turn (besides the one running); unbounded when absent. */
  queuePerOwner?: number;
}

interface Pending<Request, Reply> {
  request: Request;
  /** Asked before the job starts: false once its result is no longer of use. */
  wanted: () => boolean;
  resolve: (reply: Reply | TenantWorkFailure) => void;
}

interface Slot<Request, Reply> {
  worker: Worker | undefined;
  /** The thread has loaded its modules (its first message): a job's limit counts from then. */
  ready: boolean;
  /** The job in the thread; its timer is armed once the thread is ready. */
  running:
    | {
        owner: string;
        pending: Pending<Request, Reply>;
        timer: NodeJS.Timeout | undefined;
      }
    | undefined;
}

/**
 * Runs work whose cost a tenant controls (its patterns, rules and URLs) in a few threads, never on
 * the thread that answers the API (docs/security.md, Tenant work off the API thread). Jobs of one
 * owner run one at a time, in order, so one owner never holds more than one thread; owners take
 * turns; an owner's waiting jobs are bounded. A job that runs past its limit has its thread
 * terminated (a fresh one takes the next job). `run` never rejects: it answers the thread's reply
 * or a TenantWorkFailure.
 */
export class TenantWorkPool<Request, Reply> {
  readonly jobLimitMs: number;
  readonly name: string;
  private readonly worker: URL;
  private readonly queuePerOwner: number;
  private readonly slots: Slot<Request, Reply>[];
  /** Waiting jobs by owner; an owner moves to the end when one of its jobs starts. */
  private readonly waiting = new Map<string, Pending<Request, Reply>[]>();
  private closed = false;

  constructor(options: TenantWorkPoolOptions) {
    const { threads, jobLimitMs } = options;
    if (!Number.isInteger(threads) || threads < 1)
      throw new RangeError(`${options.name} threads must be a positive integer, got ${threads}`);
    if (!(jobLimitMs > 0))
      throw new RangeError(`${options.name} job limit must be positive, got ${jobLimitMs}`);
    this.name = options.name;
    this.worker = options.worker;
    this.jobLimitMs = jobLimitMs;
    this.queuePerOwner = options.queuePerOwner ?? Infinity;
    this.slots = Array.from({ length: threads }, () => ({
      worker: undefined,
      ready: false,
      running: undefined,
    }));
  }

  /** The limit in the words failures use: "10 s". */
  get limitText(): string {
    return `${this.jobLimitMs / 1000} s`;
  }

  run(
    owner: string,
    request: Request,
    wanted: () => boolean = () => true,
  ): Promise<Reply | TenantWorkFailure> {
    return new Promise((resolve) => {
      if (this.closed) {
        resolve(this.failure('closed', `the ${this.name} threads are closed`));
        return;
      }
      const queue = this.waiting.get(owner) ?? [];
      if (queue.length >= this.queuePerOwner) {
        resolve(
          this.failure(
            'queue_full',
            `at most ${this.queuePerOwner} ${this.name} jobs of one contract may wait`,
          ),
        );
        return;
      }
      queue.push({ request, wanted, resolve });
      this.waiting.set(owner, queue);
      this.startJobs();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const closed = this.failure('closed', `the ${this.name} threads are closed`);
    for (const queue of this.waiting.values()) for (const pending of queue) pending.resolve(closed);
    this.waiting.clear();
    const workers: Worker[] = [];
    for (const slot of this.slots) {
      if (slot.running !== undefined) this.settle(slot, closed, true);
      if (slot.worker !== undefined) workers.push(slot.worker);
      slot.worker = undefined;
    }
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private failure(failure: TenantWorkFailure['failure'], reason: string): TenantWorkFailure {
    return { ok: false, failure, reason };
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
  private nextJob(): { owner: string; pending: Pending<Request, Reply> } | undefined {
    const busy = new Set(this.slots.flatMap((slot) => (slot.running ? [slot.running.owner] : [])));
    for (const [owner, queue] of this.waiting) {
      if (busy.has(owner)) continue;
      let pending: Pending<Request, Reply> | undefined;
      while ((pending = queue.shift()) !== undefined && !pending.wanted())
        pending.resolve(this.failure('unwanted', 'no longer wanted'));
      this.waiting.delete(owner);
      if (queue.length > 0) this.waiting.set(owner, queue);
      if (pending !== undefined) return { owner, pending };
    }
    return undefined;
  }

  private start(slot: Slot<Request, Reply>, owner: string, pending: Pending<Request, Reply>): void {
    const worker = slot.worker ?? this.spawn(slot);
    slot.running = { owner, pending, timer: undefined };
    // An idle thread is unref'd; one with a job keeps the process alive until the job answers.
    worker.ref();
    if (slot.ready) this.armLimit(slot);
    worker.postMessage(pending.request);
  }

  /**
   * Starts the running job's limit. A fresh thread's start (loading its modules, slow on a busy
   * machine) is not the job's cost: counting it could refuse an owner's work for nothing.
   */
  private armLimit(slot: Slot<Request, Reply>): void {
    if (slot.running === undefined || slot.running.timer !== undefined) return;
    slot.running.timer = setTimeout(() => {
      this.settle(slot, this.failure('over_limit', `matching took over ${this.limitText}`), true);
    }, this.jobLimitMs);
  }

  private spawn(slot: Slot<Request, Reply>): Worker {
    const worker = new Worker(this.worker);
    slot.ready = false;
    worker.on('message', (reply: Reply | TenantWorkFailure | typeof TENANT_THREAD_READY) => {
      if (worker !== slot.worker) return;
      if (reply === TENANT_THREAD_READY) {
        slot.ready = true;
        this.armLimit(slot);
      } else {
        this.settle(slot, reply, false);
      }
    });
    worker.on('error', (error: Error) => {
      if (worker === slot.worker)
        this.settle(
          slot,
          this.failure('thread_failed', `${this.name} thread failed: ${error.message}`),
          true,
        );
    });
    worker.on('exit', (code: number) => {
      if (worker === slot.worker)
        this.settle(slot, this.failure('thread_failed', `${this.name} thread exited (${code})`), true);
    });
    // After the listeners, which would ref the worker's port again: an idle thread must not keep the process up.
    worker.unref();
    slot.worker = worker;
    return worker;
  }

  /** Answers the slot's job; a thread in an unknown state (stopped mid-job, failed) is dropped, not reused. */
  private settle(slot: Slot<Request, Reply>, reply: Reply | TenantWorkFailure, dropWorker: boolean): void {
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
