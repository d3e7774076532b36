import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { QueryTerm } from '../highlight/query-terms.js';
import type { HitTemplates } from '../template-blocks.js';
import { HIT_THREAD_KEEPS, type HitPageReply, type HitPageRequest } from './hit-page-job.js';
import type { PageHit } from './organic-docs.js';
import type { OrganicDoc } from './search-response.js';

const WORKER_URL = new URL('./hit-page-worker.js', import.meta.url);
/**
 * The young generation of a hit thread, in megabytes. Under load V8 lets it grow to 32 MB per
 * thread, and the service's RSS after serving grows with it; a page's garbage is small and
 * short-lived, so a small one collects it as well (docs/operations.md, Memory).
 */
const HIT_THREAD_YOUNG_MB = 4;

/**
 * Threads besides the one answering the API: together they use every core, and more would only
 * wait for that thread, which still matches, ranks and counts facets (docs/design/search-engine.md,
 * Search requests).
 */
export function defaultHitThreads(): number {
  return Math.min(4, availableParallelism() - 1);
}

interface Slot {
  worker: Worker | undefined;
  /** Answers of the jobs posted to the thread, in order: a thread answers in the order it is asked. */
  waiting: ((reply: HitPageReply | undefined) => void)[];
  /** Keys of the template line sets the thread holds, oldest first, as the thread keeps them. */
  templatesKeys: number[];
}

/** What a page's hits are cut from: the index file as one open of it names it. */
export interface HitPageIndex {
  openKey: string;
  file: string;
}

/**
 * Cuts result pages in a few threads, each job to the thread with the fewest waiting. `render`
 * answers undefined when no thread could (one failed or exited, or the pool is closed): the
 * caller then cuts the page itself, so a search never fails for want of a thread.
 */
export class HitPagePool {
  private readonly slots: Slot[];
  private readonly templatesKeys = new WeakMap<HitTemplates, number>();
  private nextTemplatesKey = 1;
  private closed = false;

  get threads(): number {
    return this.slots.length;
  }

  constructor(threads = defaultHitThreads()) {
    if (!Number.isInteger(threads) || threads < 1)
      throw new RangeError(`HitPagePool threads must be a positive integer, got ${threads}`);
    this.slots = Array.from({ length: threads }, () => ({
      worker: undefined,
      waiting: [],
      templatesKeys: [],
    }));
  }

  render(
    index: HitPageIndex,
    hits: readonly PageHit[],
    terms: readonly QueryTerm[],
    templates: HitTemplates,
  ): Promise<OrganicDoc[] | undefined> {
    if (this.closed) return Promise.resolve(undefined);
    const slot = this.slots.reduce((best, candidate) =>
      candidate.waiting.length < best.waiting.length ? candidate : best,
    );
    const worker = slot.worker ?? this.spawn(slot);
    const templatesKey = this.keyOf(templates);
    const known = slot.templatesKeys.includes(templatesKey);
    if (!known) {
      slot.templatesKeys.push(templatesKey);
      if (slot.templatesKeys.length > HIT_THREAD_KEEPS) slot.templatesKeys.shift();
    }
    const request: HitPageRequest = {
      indexKey: index.openKey,
      file: index.file,
      templatesKey,
      templates: known ? undefined : templates,
      terms,
      hits,
    };
    return new Promise((resolve) => {
      slot.waiting.push((reply) => resolve(reply?.ok === true ? reply.docs : undefined));
      // A thread with jobs keeps the process up until they are answered; an idle one does not.
      if (slot.waiting.length === 1) worker.ref();
      worker.postMessage(request);
    });
  }

  /**
   * Starts the threads not running yet, so that the first result page does not wait for a thread
   * to load its code; they hold the process no more than idle ones do.
   */
  start(): void {
    if (this.closed) return;
    for (const slot of this.slots) if (slot.worker === undefined) this.spawn(slot);
  }

  async close(): Promise<void> {
    this.closed = true;
    const workers = this.slots.flatMap((slot) => (slot.worker === undefined ? [] : [slot.worker]));
    for (const slot of this.slots) this.drop(slot);
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private keyOf(templates: HitTemplates): number {
    let key = this.templatesKeys.get(templates);
    if (key === undefined) {
      key = this.nextTemplatesKey;
      this.nextTemplatesKey += 1;
      this.templatesKeys.set(templates, key);
    }
    return key;
  }

  private spawn(slot: Slot): Worker {
    const worker = new Worker(WORKER_URL, {
      resourceLimits: { maxYoungGenerationSizeMb: HIT_THREAD_YOUNG_MB },
    });
    worker.on('message', (reply: HitPageReply) => {
      if (worker !== slot.worker) return;
      slot.waiting.shift()?.(reply);
      if (slot.waiting.length === 0) worker.unref();
    });
    const fail = () => {
      if (worker !== slot.worker) return;
      this.drop(slot);
      void worker.terminate();
    };
    worker.on('error', fail);
    worker.on('exit', fail);
    // After the listeners, which would ref the worker's port again.
    worker.unref();
    slot.worker = worker;
    return worker;
  }

  /** Forgets the slot's thread: its waiting jobs answer undefined, a next job starts a fresh one. */
  private drop(slot: Slot): void {
    const waiting = slot.waiting;
    slot.worker = undefined;
    slot.waiting = [];
    slot.templatesKeys = [];
    for (const answer of waiting) answer(undefined);
  }
}
