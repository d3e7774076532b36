import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Work that can run at once or in slices between the event loop's other tasks
 * (docs/design/search-engine.md, Suggest): a generator that yields at points where it may be paused,
 * every few hundred items, and returns its result.
 */
export type Work<T> = Generator<void, T, void>;

/** Time a slice runs before the event loop gets a turn: requests wait at most about this long. */
export const SLICE_MS = 8;

/** Runs work to its end now, on the calling thread. */
export function runNow<T>(work: Work<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done === true) return step.value;
  }
}

/**
 * The longest a slice waits for the searches under way to end (whileSearching): under a steady
 * load, work in slices still goes on, at a slice every this often.
 */
export const GIVE_WAY_MS = 50;

/** Searches this process is answering: work in slices gives way to them. */
let searchesUnderWay = 0;
/** Told when the last search under way ends. */
let onSearchesEnded: (() => void)[] = [];

/**
 * Runs a search as one the work in slices gives way to (docs/design/search-engine.md, Suggest): a
 * suggester built in the background never takes the CPU from the first searches of an index just
 * opened, which wait for its facets and result pages from other threads.
 */
export async function whileSearching<T>(search: () => Promise<T>): Promise<T> {
  searchesUnderWay += 1;
  try {
    return await search();
  } finally {
    searchesUnderWay -= 1;
    if (searchesUnderWay === 0) {
      const waiting = onSearchesEnded;
      onSearchesEnded = [];
      // On a later turn: the search's answer is sent first, in this turn's microtasks.
      for (const resume of waiting) setImmediate(resume);
    }
  }
}

/** Resolves when no search is under way, or after GIVE_WAY_MS. */
async function giveWay(): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await new Promise<void>((resolve) => {
    onSearchesEnded.push(resolve);
    timer = setTimeout(resolve, GIVE_WAY_MS);
  });
  clearTimeout(timer);
}

/**
 * Runs work in slices of about `sliceMs`, giving the event loop a turn between slices and waiting
 * for searches under way (whileSearching); throws between two slices once `stopped` says so (its
 * index was closed: nobody will use the result).
 */
export async function runInSlices<T>(work: Work<T>, stopped: () => boolean, sliceMs = SLICE_MS): Promise<T> {
  for (;;) {
    if (searchesUnderWay > 0) await giveWay();
    if (stopped()) throw new Error('stopped');
    const started = performance.now();
    do {
      const step = work.next();
      if (step.done === true) return step.value;
    } while (performance.now() - started < sliceMs);
    await nextTurn();
  }
}

/** Items handled between two pause points of a loop. */
export const ITEMS_PER_PAUSE = 256;

/**
 * Sorts in place of a copy, stable, pausing between runs and during merges: a sort of a million
 * keys takes about a second, which one slice must never hold.
 */
export function* sortInSlices<T>(items: readonly T[], compare: (a: T, b: T) => number): Work<T[]> {
  const RUN = 2048;
  let from = items.slice();
  for (let start = 0; start < from.length; start += RUN) {
    const run = from.slice(start, start + RUN).sort(compare);
    for (let at = 0; at < run.length; at += 1) from[start + at] = run[at]!;
    yield;
  }
  let to = new Array<T>(from.length);
  for (let width = RUN; width < from.length; width *= 2) {
    for (let left = 0; left < from.length; left += 2 * width) {
      const middle = Math.min(left + width, from.length);
      const end = Math.min(left + 2 * width, from.length);
      let a = left;
      let b = middle;
      for (let out = left; out < end; out += 1) {
        // Ties take the left run's item first: the sort stays stable.
        to[out] = b >= end || (a < middle && compare(from[a]!, from[b]!) <= 0) ? from[a++]! : from[b++]!;
        if (out % (ITEMS_PER_PAUSE * 8) === 0) yield;
      }
    }
    [from, to] = [to, from];
  }
  return from;
}
