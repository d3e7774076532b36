import { compareTerms, type SegmentTerm } from '../engine/segment.js';
import { LargestValues } from './largest-values.js';
import type { Work } from './work-slices.js';

/** Words merged between two points where the work may pause. */
const WORDS_PER_PAUSE = 512;
/** A page of terms read counts as this many words merged: a slice reads a few pages at most. */
const WORDS_PER_PAGE = 128;

/** One segment's terms as they are read, a page at a time, in `compareTerms` order. */
class TermCursor {
  /** The current term, or undefined once the segment's terms are all read. */
  current: SegmentTerm | undefined;
  /** Pages read so far: each is a query of the index file. */
  pagesRead = 0;
  private page: readonly SegmentTerm[] = [];
  private index = 0;

  constructor(
    private readonly pages: Iterator<readonly SegmentTerm[]>,
    private readonly wanted: (term: string) => boolean,
  ) {}

  /**
   * Moves towards the next wanted term, reading at most one more page of the segment: true once
   * it is there (or the segment has ended), false when it must be called again. A segment's
   * terms that are not wanted may fill many pages in a row (a Japanese site's word-view terms
   * sort first, its character pairs last), and the caller pauses between pages.
   */
  advance(): boolean {
    for (let fetched = false; ; fetched = true) {
      while (this.index < this.page.length) {
        const entry = this.page[this.index++]!;
        if (this.wanted(entry.term)) {
          this.current = entry;
          return true;
        }
      }
      if (fetched) return false;
      const next = this.pages.next();
      if (next.done === true) {
        this.current = undefined;
        return true;
      }
      this.page = next.value;
      this.index = 0;
      this.pagesRead += 1;
    }
  }
}

/**
 * The `limit` words with the most documents over all segments, each with that count, from
 * segments whose terms come in `compareTerms` order (docs/design/search-engine.md, Did you mean).
 * The segments' terms are merged as they are read, so a word's count is whole before it is
 * weighed, and memory holds the `limit` words kept and a page of terms per segment whatever the
 * index's size. Of words with as many documents, the first in term order are kept. The result
 * comes most documents first, then in term order.
 */
export function* commonestWords(
  segments: readonly { termPages(): Iterable<readonly SegmentTerm[]> }[],
  wanted: (term: string) => boolean,
  limit: number,
): Work<Map<string, number>> {
  const cursors: TermCursor[] = [];
  for (const segment of segments) {
    const cursor = new TermCursor(segment.termPages()[Symbol.iterator](), wanted);
    while (!cursor.advance()) yield;
    yield;
    if (cursor.current !== undefined) cursors.push(cursor);
  }
  const order = new CursorHeap(cursors);
  const kept = new LargestValues<string>(limit);
  let sincePause = 0;
  for (;;) {
    const first = order.peek();
    if (first === undefined) break;
    const term = first.current!.term;
    let documents = 0;
    // Every cursor at this term is at the top of the heap in turn.
    for (let cursor = order.peek(); cursor?.current?.term === term; cursor = order.peek()) {
      documents += cursor.current.docCount;
      const pagesBefore = cursor.pagesRead;
      while (!cursor.advance()) yield;
      sincePause += (cursor.pagesRead - pagesBefore) * WORDS_PER_PAGE;
      order.settleTop();
    }
    kept.offer(term, documents);
    if (++sincePause >= WORDS_PER_PAUSE) {
      sincePause = 0;
      yield;
    }
  }
  return yield* kept.toMap();
}

/** Cursors by their current term, the first in `compareTerms` order on top; ended ones leave. */
class CursorHeap {
  constructor(private readonly cursors: TermCursor[]) {
    for (let index = (cursors.length >> 1) - 1; index >= 0; index -= 1) this.siftDown(index);
  }

  peek(): TermCursor | undefined {
    return this.cursors[0];
  }

  /** The top cursor moved on: it goes down to its place, or leaves when it has ended. */
  settleTop(): void {
    const top = this.cursors[0]!;
    if (top.current === undefined) {
      const last = this.cursors.pop()!;
      if (this.cursors.length === 0) return;
      this.cursors[0] = last;
    }
    this.siftDown(0);
  }

  private siftDown(from: number): void {
    const cursors = this.cursors;
    let index = from;
    for (;;) {
      const left = index * 2 + 1;
      if (left >= cursors.length) return;
      const right = left + 1;
      const child = right < cursors.length && this.before(cursors[right]!, cursors[left]!) ? right : left;
      if (!this.before(cursors[child]!, cursors[index]!)) return;
      [cursors[child], cursors[index]] = [cursors[index]!, cursors[child]!];
      index = child;
    }
  }

  private before(a: TermCursor, b: TermCursor): boolean {
    return compareTerms(a.current!.term, b.current!.term) < 0;
  }
}
