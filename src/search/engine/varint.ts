/** LEB128 varints, the encoding of every stored segment array (segment-codec.ts). */

/** LEB128 writer into a growing byte buffer. */
export class VarintWriter {
  private buffer: Uint8Array;
  private used = 0;

  constructor(initialBytes: number) {
    this.buffer = new Uint8Array(Math.max(16, initialBytes));
  }

  /** Bytes written since the last reset. */
  get length(): number {
    return this.used;
  }

  plain(values: ArrayLike<number>, start = 0, end = values.length): void {
    for (let index = start; index < end; index += 1) this.write(values[index]!);
  }

  /** `values[start .. end)`, ascending, as gaps from the previous value (the first from 0). */
  gaps(values: ArrayLike<number>, start: number, end: number): void {
    let previous = 0;
    for (let index = start; index < end; index += 1) {
      const value = values[index]!;
      this.write(value - previous);
      previous = value;
    }
  }

  /** Bytes as they are, after those written. */
  append(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.used);
    this.used += bytes.length;
  }

  /** The bytes written, as a view of the writer's buffer: valid until the next write or reset. */
  bytes(): Buffer {
    return Buffer.from(this.buffer.buffer, this.buffer.byteOffset, this.used);
  }

  /** Starts again at the first byte, keeping the buffer. */
  reset(): void {
    this.used = 0;
  }

  write(value: number): void {
    if (this.used + 5 > this.buffer.length) this.reserve(5);
    let rest = value >>> 0;
    while (rest >= 0x80) {
      this.buffer[this.used++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    this.buffer[this.used++] = rest;
  }

  /** Room for `bytes` more, the buffer at least doubled when it grows. */
  private reserve(bytes: number): void {
    if (this.used + bytes <= this.buffer.length) return;
    const larger = new Uint8Array(Math.max(this.buffer.length * 2, this.used + bytes) + 5);
    larger.set(this.buffer.subarray(0, this.used));
    this.buffer = larger;
  }
}

/** The run starts of `VarintReader.gaps`: reads are synchronous, so one array serves them all. */
const ONE_RUN = new Uint32Array(2);

/** LEB128 reader; throws when the bytes end early or a value is too long. */
export class VarintReader {
  private offset = 0;

  constructor(private readonly bytes: Uint8Array) {}

  plain(count: number): Uint32Array {
    const values = new Uint32Array(count);
    for (let index = 0; index < count; index += 1) values[index] = this.read();
    return values;
  }

  /**
   * Fills `target` from runs of gaps, run r covering `target[runStarts[r] .. runStarts[r + 1])`
   * with its gaps counted from 0. One loop over all runs with the varint decoding written out:
   * a search decodes every position of the terms it reads.
   */
  runsOfGaps(target: Uint32Array, runStarts: Uint32Array): Uint32Array {
    const bytes = this.bytes;
    const length = bytes.length;
    let offset = this.offset;
    for (let run = 0; run + 1 < runStarts.length; run += 1) {
      let value = 0;
      const end = runStarts[run + 1]!;
      for (let index = runStarts[run]!; index < end; index += 1) {
        if (offset >= length) throw new Error('truncated index segment');
        let byte = bytes[offset++]!;
        if (byte >= 0x80) {
          // A running scale, not 2 ** shift: the power operator made this loop ten times slower.
          let gap = byte & 0x7f;
          let scale = 0x80;
          do {
            if (offset >= length || scale > 0x10000000) throw new Error('truncated index segment');
            byte = bytes[offset++]!;
            gap += (byte & 0x7f) * scale;
            scale *= 0x80;
          } while (byte >= 0x80);
          byte = gap;
        }
        value += byte;
        target[index] = value;
      }
    }
    this.offset = offset;
    return target;
  }

  atEnd(): boolean {
    return this.offset === this.bytes.length;
  }

  /** Where the next value starts: for a decoder that reads the bytes itself, then `moveTo`s past them. */
  get position(): number {
    return this.offset;
  }

  /** The bytes being read. */
  get source(): Uint8Array {
    return this.bytes;
  }

  moveTo(offset: number): void {
    this.offset = offset;
  }

  /** Fills `target` from one run of gaps counted from 0. */
  gaps(target: Uint32Array): Uint32Array {
    ONE_RUN[1] = target.length;
    return this.runsOfGaps(target, ONE_RUN);
  }

  expectEnd(): void {
    if (this.offset !== this.bytes.length) throw new Error('corrupt index segment');
  }

  read(): number {
    const bytes = this.bytes;
    let offset = this.offset;
    if (offset >= bytes.length) throw new Error('truncated index segment');
    const first = bytes[offset++]!;
    // Most values are one byte (a count, a small gap): no loop for them.
    if (first < 0x80) {
      this.offset = offset;
      return first;
    }
    let result = first & 0x7f;
    let scale = 0x80;
    for (;;) {
      if (offset >= bytes.length || scale > 0x10000000) throw new Error('truncated index segment');
      const byte = bytes[offset++]!;
      result += (byte & 0x7f) * scale;
      if (byte < 0x80) {
        this.offset = offset;
        return result;
      }
      scale *= 0x80;
    }
  }
}
