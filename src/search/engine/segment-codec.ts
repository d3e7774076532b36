import { FIELD_COUNT } from './fields.js';
import type { SegmentData } from './segment.js';

/**
 * Stored segment format: 'KSEG', format version, counts, then the arrays as LEB128 varints and
 * the terms. Ascending runs are stored as gaps: the offset arrays throughout, a term's document
 * ordinals and a posting's positions from their own start, which makes the positions (most of
 * a segment) about a third of their size in memory.
 */
const MAGIC = 0x4745534b;
const FORMAT_VERSION = 2;
const HEADER_WORDS = 8;

/** A segment as bytes, for the index store. */
export function encodeSegment(data: SegmentData): Buffer {
  const termBytes = Buffer.from(data.terms.join('\u0000'), 'utf8');
  const writer = new VarintWriter(
    (data.docIds.length * (1 + FIELD_COUNT) +
      data.postingDocs.length * 2 +
      data.positions.length +
      data.terms.length) *
      2 +
      64,
  );
  writer.plain(data.docIds);
  writer.plain(data.fieldLengths);
  writer.gaps(data.postingStart, 0, data.postingStart.length);
  for (let term = 0; term < data.terms.length; term += 1) {
    writer.gaps(data.postingDocs, data.postingStart[term]!, data.postingStart[term + 1]!);
  }
  writer.gaps(data.positionStart, 0, data.positionStart.length);
  for (let posting = 0; posting < data.postingDocs.length; posting += 1) {
    writer.gaps(data.positions, data.positionStart[posting]!, data.positionStart[posting + 1]!);
  }
  const arrays = writer.bytes();
  const header = new Uint32Array([
    MAGIC,
    FORMAT_VERSION,
    data.docIds.length,
    data.terms.length,
    data.postingDocs.length,
    data.positions.length,
    termBytes.length,
    arrays.length,
  ]);
  return Buffer.concat([Buffer.from(header.buffer, header.byteOffset, header.byteLength), arrays, termBytes]);
}

/** Reads what `encodeSegment` wrote; throws on a foreign or truncated blob. */
export function decodeSegment(bytes: Uint8Array): SegmentData {
  if (bytes.byteLength < HEADER_WORDS * 4) throw new Error('not a Kumo index segment');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const word = (index: number) => view.getUint32(index * 4, true);
  if (word(0) !== MAGIC || word(1) !== FORMAT_VERSION) throw new Error('not a Kumo index segment');
  const [docCount, termCount, postingCount, positionCount, termByteLength, arrayByteLength] = [
    2, 3, 4, 5, 6, 7,
  ].map(word) as [number, number, number, number, number, number];
  const arraysStart = HEADER_WORDS * 4;
  if (arraysStart + arrayByteLength + termByteLength !== bytes.byteLength)
    throw new Error('truncated index segment');
  const reader = new VarintReader(bytes.subarray(arraysStart, arraysStart + arrayByteLength));
  const docIds = reader.plain(docCount);
  const fieldLengths = reader.plain(docCount * FIELD_COUNT);
  const postingStart = reader.gaps(new Uint32Array(termCount + 1), 0, termCount + 1);
  const postingDocs = reader.runsOfGaps(new Uint32Array(postingCount), postingStart);
  const positionStart = reader.gaps(new Uint32Array(postingCount + 1), 0, postingCount + 1);
  const positions = reader.runsOfGaps(new Uint32Array(positionCount), positionStart);
  reader.expectEnd();
  const termText = Buffer.from(
    bytes.buffer,
    bytes.byteOffset + arraysStart + arrayByteLength,
    termByteLength,
  ).toString('utf8');
  const terms = termCount === 0 ? [] : termText.split('\u0000');
  if (terms.length !== termCount) throw new Error('corrupt index segment terms');
  return { docIds, fieldLengths, terms, postingStart, postingDocs, positionStart, positions };
}

/** LEB128 writer into a growing byte buffer. */
class VarintWriter {
  private buffer: Uint8Array;
  private length = 0;

  constructor(initialBytes: number) {
    this.buffer = new Uint8Array(initialBytes);
  }

  plain(values: Uint32Array): void {
    for (const value of values) this.write(value);
  }

  /** `values[start .. end)`, ascending, as gaps from the previous value (the first from 0). */
  gaps(values: Uint32Array, start: number, end: number): void {
    let previous = 0;
    for (let index = start; index < end; index += 1) {
      const value = values[index]!;
      this.write(value - previous);
      previous = value;
    }
  }

  bytes(): Buffer {
    return Buffer.from(this.buffer.buffer, this.buffer.byteOffset, this.length);
  }

  private write(value: number): void {
    if (this.length + 5 > this.buffer.length) {
      const larger = new Uint8Array(this.buffer.length * 2 + 5);
      larger.set(this.buffer.subarray(0, this.length));
      this.buffer = larger;
    }
    let rest = value >>> 0;
    while (rest >= 0x80) {
      this.buffer[this.length++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    this.buffer[this.length++] = rest;
  }
}

/** LEB128 reader; throws when the bytes end early or a value is too long. */
class VarintReader {
  private offset = 0;

  constructor(private readonly bytes: Uint8Array) {}

  plain(count: number): Uint32Array {
    const values = new Uint32Array(count);
    for (let index = 0; index < count; index += 1) values[index] = this.read();
    return values;
  }

  /** Fills `target[start .. end)` from gaps, returning `target`. */
  gaps(target: Uint32Array, start: number, end: number): Uint32Array {
    return this.runsOfGaps(target, Uint32Array.of(start, end));
  }

  /**
   * Fills `target` from runs of gaps, run r covering `target[runStarts[r] .. runStarts[r + 1])`
   * with its gaps counted from 0. One loop over all runs with the varint decoding written out:
   * this reads every posting and position when an index is opened, millions of values.
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

  expectEnd(): void {
    if (this.offset !== this.bytes.length) throw new Error('corrupt index segment arrays');
  }

  private read(): number {
    let result = 0;
    let scale = 1;
    for (;;) {
      if (this.offset >= this.bytes.length || scale > 0x10000000) throw new Error('truncated index segment');
      const byte = this.bytes[this.offset++]!;
      result += (byte & 0x7f) * scale;
      if (byte < 0x80) return result;
      scale *= 0x80;
    }
  }
}
