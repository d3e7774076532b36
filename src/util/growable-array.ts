/** An append-only Uint32Array that doubles its storage as it grows. */
export class GrowableUint32Array {
  private buffer: Uint32Array;
  length = 0;

  constructor(initialCapacity = 1024) {
    this.buffer = new Uint32Array(Math.max(16, initialCapacity));
  }

  push(value: number): void {
    if (this.length === this.buffer.length) {
      const larger = new Uint32Array(this.buffer.length * 2);
      larger.set(this.buffer);
      this.buffer = larger;
    }
    this.buffer[this.length++] = value;
  }

  /** Appends `source[start .. end)`. */
  pushRange(source: Uint32Array, start: number, end: number): void {
    const count = end - start;
    if (this.length + count > this.buffer.length) {
      let capacity = this.buffer.length * 2;
      while (capacity < this.length + count) capacity *= 2;
      const larger = new Uint32Array(capacity);
      larger.set(this.buffer.subarray(0, this.length));
      this.buffer = larger;
    }
    this.buffer.set(source.subarray(start, end), this.length);
    this.length += count;
  }

  get(index: number): number {
    return this.buffer[index]!;
  }

  /** The values as a view of the storage: valid until the next push or clear. */
  view(): Uint32Array {
    return this.buffer.subarray(0, this.length);
  }

  /** Empties the array, keeping its storage. */
  clear(): void {
    this.length = 0;
  }

  /** A copy trimmed to the length. */
  toArray(): Uint32Array {
    return this.buffer.slice(0, this.length);
  }
}
