import { compareTerms, type SegmentTerm } from '../engine/segment.js';
import type { Work } from './work-slices.js';

/** Terms read between two points where the work may pause. */
const TERMS_PER_PAUSE = 512;

/** One segment's terms as they are read, a page at a time, in `compareTerms` order. */
class TermCursor {
  /** The current term, or undefined once the segment's terms are all read. */
  current: SegmentTerm | undefined;
  private page: readonly SegmentTerm[] = [];
  private index = 0;

  constructor(
    private readonly pages: Iterator<readonly SegmentTerm[]>,
    private readonly wanted: (term: string) => boolean,
  ) {}

  /** Moves to the next wanted term; returns how many terms it passed over. */
  advance(): number {
    let read = 0;
    for (;;) {
      while (this.index < this.page.length) {
        const entry = this.page[this.index++]!;
        read += 1;
        if (this.wanted(entry.term)) {
          this.current = entry;
          return read;
        }
      }
      const next = this.pages.next();
      if (next.done === true) {
        this.current = undefined;
        return read;
      }
      this.page = next.value;
      this.index = 0;
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
): Work<{ words: Map<string, number>; complete: boolean }> {
  const cursors: TermCursor[] = [];
  let sincePause = 0;
  for (const segment of segments) {
    const cursor = new TermCursor(segment.termPages()[Symbol.iterator](), wanted);
    sincePause += cursor.advance();
    if (cursor.current !== undefined) cursors.push(cursor);
  }
  const order = new CursorHeap(cursors);
  const kept = new CountHeap(limit);
  let complete = true;
  for (;;) {
    const first = order.peek();
    if (first === undefined) break;
    const term = first.current!.term;
    let documents = 0;
    // Every cursor at this term is at the top of the heap in turn.
    for (let cursor = order.peek(); cursor?.current?.term === term; cursor = order.peek()) {
      documents += cursor.current.docCount;
      sincePause += cursor.advance();
      order.settleTop();
    }
    if (!kept.offer(term, documents)) complete = false;
    if (sincePause >= TERMS_PER_PAUSE) {
      sincePause = 0;
      yield;
    }
  }
  return { words: kept.toMap(), complete };
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

/**
 * The words with the most documents seen so far, at most `limit`: a heap whose top is the word
 * to give up first (fewest documents, then last in term order, as words come in term order).
 */
class CountHeap {
  private readonly words: string[] = [];
  private readonly counts: number[] = [];
  /** The order words came in: of equal counts, the later one is given up first. */
  private readonly arrivals: number[] = [];
  private arrived = 0;

  constructor(private readonly limit: number) {}

  /** Keeps the word if it is among the most common so far; false when a word was given up. */
  offer(word: string, count: number): boolean {
    const arrival = this.arrived++;
    if (this.words.length < this.limit) {
      this.words.push(word);
      this.counts.push(count);
      this.arrivals.push(arrival);
      this.siftUp(this.words.length - 1);
      return true;
    }
    if (this.limit === 0 || count <= this.counts[0]!) return false;
    this.words[0] = word;
    this.counts[0] = count;
    this.arrivals[0] = arrival;
    this.siftDown(0);
    return false;
  }

  /** The words kept, most documents first, then in the order they came. */
  toMap(): Map<string, number> {
    const order = this.words.map((_, index) => index);
    order.sort((a, b) => this.counts[b]! - this.counts[a]! || this.arrivals[a]! - this.arrivals[b]!);
    return new Map(order.map((index) => [this.words[index]!, this.counts[index]!]));
  }

  /** Whether the word at `a` is given up before the one at `b`. */
  private before(a: number, b: number): boolean {
    const counts = this.counts;
    return counts[a]! < counts[b]! || (counts[a] === counts[b] && this.arrivals[a]! > this.arrivals[b]!);
  }

  private siftUp(from: number): void {
    let index = from;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.before(index, parent)) return;
      this.swap(index, parent);
      index = parent;
    }
  }

  private siftDown(from: number): void {
    let index = from;
    for (;;) {
      const left = index * 2 + 1;
      if (left >= this.words.length) return;
      const right = left + 1;
      const child = right < this.words.length && this.before(right, left) ? right : left;
      if (!this.before(child, index)) return;
      this.swap(child, index);
      index = child;
    }
  }

  private swap(a: number, b: number): void {
    [this.words[a], this.words[b]] = [this.words[b]!, this.words[a]!];
    [this.counts[a], this.counts[b]] = [this.counts[b]!, this.counts[a]!];
    [this.arrivals[a], this.arrivals[b]] = [this.arrivals[b]!, this.arrivals[a]!];
  }
}
