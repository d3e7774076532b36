import { sortInSlices, type Work } from './work-slices.js';

/**
 * The keys with the largest values offered so far, at most `limit`, as they are offered one by
 * one: a heap whose top is the key to give up first (the smallest value; of equal values, the
 * one offered last), so memory holds `limit` keys however many are offered.
 */
export class LargestValues<Key> {
  private readonly keys: Key[] = [];
  private readonly values: number[] = [];
  /** The order keys came in: of equal values, the later one is given up first. */
  private readonly arrivals: number[] = [];
  private arrived = 0;

  constructor(private readonly limit: number) {}

  /** Keeps the key if its value is among the largest so far; false when a key was given up. */
  offer(key: Key, value: number): boolean {
    const arrival = this.arrived++;
    if (this.keys.length < this.limit) {
      this.keys.push(key);
      this.values.push(value);
      this.arrivals.push(arrival);
      this.siftUp(this.keys.length - 1);
      return true;
    }
    if (this.limit === 0 || value <= this.values[0]!) return false;
    this.keys[0] = key;
    this.values[0] = value;
    this.arrivals[0] = arrival;
    this.siftDown(0);
    return false;
  }

  /** The keys kept, the largest values first, then in the order they came (sorted in slices). */
  *toMap(): Work<Map<Key, number>> {
    const order = yield* sortInSlices(
      this.keys.map((_, index) => index),
      (a, b) => this.values[b]! - this.values[a]! || this.arrivals[a]! - this.arrivals[b]!,
    );
    return new Map(order.map((index) => [this.keys[index]!, this.values[index]!]));
  }

  /** Whether the key at `a` is given up before the one at `b`. */
  private before(a: number, b: number): boolean {
    const values = this.values;
    return values[a]! < values[b]! || (values[a] === values[b] && this.arrivals[a]! > this.arrivals[b]!);
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
      if (left >= this.keys.length) return;
      const right = left + 1;
      const child = right < this.keys.length && this.before(right, left) ? right : left;
      if (!this.before(child, index)) return;
      this.swap(child, index);
      index = child;
    }
  }

  private swap(a: number, b: number): void {
    [this.keys[a], this.keys[b]] = [this.keys[b]!, this.keys[a]!];
    [this.values[a], this.values[b]] = [this.values[b]!, this.values[a]!];
    [this.arrivals[a], this.arrivals[b]] = [this.arrivals[b]!, this.arrivals[a]!];
  }
}
