import type { Worker } from 'node:worker_threads';

/** How long a thread waits for its next run before it is ended, giving its memory back. */
const WARM_IDLE_MS = 60_000;
/** Runs one thread serves before it is ended, whatever it may have kept (a slow leak stays bounded). */
const RUNS_PER_THREAD = 50;

interface IdleThread {
  thread: Worker;
  timer: NodeJS.Timeout;
  onGone: () => void;
}

/**
 * Threads that ended a run cleanly, kept to take the next one (docs/design/crawl.md, Threads
 * kept warm between runs): a thread loads its code once, not once per run. At most `keep` wait
 * at a time, each for `idleMs` at most, and none after `maxRuns` runs. An idle thread does not
 * hold the process open, and one that exits while waiting is forgotten.
 */
export class WarmThreads {
  private readonly idle: IdleThread[] = [];
  private readonly runs = new WeakMap<Worker, number>();
  private closed = false;

  constructor(
    private readonly keep: number,
    private readonly idleMs = WARM_IDLE_MS,
    private readonly maxRuns = RUNS_PER_THREAD,
  ) {}

  /** A waiting thread, most recently used first; undefined when none waits. */
  take(): Worker | undefined {
    const entry = this.idle.pop();
    if (entry === undefined) return undefined;
    this.forget(entry);
    entry.thread.ref();
    return entry.thread;
  }

  /** Keeps a thread that ended a run cleanly, or ends it when no more may wait or it served enough. */
  give(thread: Worker): void {
    const runs = (this.runs.get(thread) ?? 0) + 1;
    this.runs.set(thread, runs);
    if (this.closed || runs >= this.maxRuns || this.idle.length >= this.keep) {
      void thread.terminate();
      return;
    }
    const entry: IdleThread = {
      thread,
      timer: setTimeout(() => {
        this.remove(entry);
        void thread.terminate();
      }, this.idleMs),
      onGone: () => this.remove(entry),
    };
    entry.timer.unref();
    thread.once('exit', entry.onGone);
    // An error while waiting (the thread dies): forgotten, never raised as an unhandled error.
    thread.once('error', entry.onGone);
    thread.unref();
    this.idle.push(entry);
  }

  /** Ends every waiting thread, and every thread given from now on (the service is stopping). */
  async close(): Promise<void> {
    this.closed = true;
    const entries = this.idle.splice(0);
    for (const entry of entries) this.forget(entry);
    await Promise.all(entries.map((entry) => entry.thread.terminate()));
  }

  private remove(entry: IdleThread): void {
    const at = this.idle.indexOf(entry);
    if (at === -1) return;
    this.idle.splice(at, 1);
    this.forget(entry);
  }

  private forget(entry: IdleThread): void {
    clearTimeout(entry.timer);
    entry.thread.off('exit', entry.onGone);
    entry.thread.off('error', entry.onGone);
  }
}
