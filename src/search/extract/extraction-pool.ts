import { type ExtractionJob, type ExtractionReply, ExtractionSandbox } from './extraction-sandbox.js';

/**
 * Threads extracting text at once (docs/design/search-engine.md, Document extraction): an owner's
 * jobs run one at a time, so with two threads another owner's document starts at once while one
 * owner's large files are read, each for at most its time limit.
 */
export const EXTRACTION_THREADS = 2;

interface Waiting {
  job: ExtractionJob;
  timeoutMs: number;
  resolve: (reply: ExtractionReply) => void;
}

interface Slot {
  sandbox: ExtractionSandbox;
  /** The owner whose job runs in the slot's thread, if any. */
  owner: string | undefined;
}

/**
 * Runs extractions in a few sandboxed threads (extraction-sandbox.ts). Owners (the contracts whose
 * runs are indexed) take turns: the owner waiting longest whose job is not already running goes
 * next, so one owner's many or large documents never hold up another's. run never rejects.
 */
export class ExtractionPool {
  private readonly slots: Slot[];
  /** Waiting jobs by owner; an owner moves to the end when one of its jobs starts. */
  private readonly waiting = new Map<string, Waiting[]>();

  constructor(threads = EXTRACTION_THREADS) {
    if (!Number.isInteger(threads) || threads < 1)
      throw new RangeError(`ExtractionPool threads must be a positive integer, got ${threads}`);
    this.slots = Array.from({ length: threads }, () => ({
      sandbox: new ExtractionSandbox(),
      owner: undefined,
    }));
  }

  run(owner: string, job: ExtractionJob, timeoutMs: number): Promise<ExtractionReply> {
    return new Promise((resolve) => {
      const queue = this.waiting.get(owner);
      if (queue === undefined) this.waiting.set(owner, [{ job, timeoutMs, resolve }]);
      else queue.push({ job, timeoutMs, resolve });
      this.startJobs();
    });
  }

  private startJobs(): void {
    for (const slot of this.slots) {
      if (slot.owner !== undefined) continue;
      const next = this.nextJob();
      if (next === undefined) return;
      slot.owner = next.owner;
      void slot.sandbox.run(next.waiting.job, next.waiting.timeoutMs).then((reply) => {
        slot.owner = undefined;
        next.waiting.resolve(reply);
        this.startJobs();
      });
    }
  }

  /** The first job of the owner waiting longest that has no job running. */
  private nextJob(): { owner: string; waiting: Waiting } | undefined {
    const busy = new Set(this.slots.map((slot) => slot.owner));
    for (const [owner, queue] of this.waiting) {
      if (busy.has(owner)) continue;
      const waiting = queue.shift()!;
      // To the end of the turns, or gone when it has nothing more waiting.
      this.waiting.delete(owner);
      if (queue.length > 0) this.waiting.set(owner, queue);
      return { owner, waiting };
    }
    return undefined;
  }
}
