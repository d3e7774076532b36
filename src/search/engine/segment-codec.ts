import { FIELD_COUNT } from './fields.js';
import type { SegmentData } from './segment.js';

/** Stored segment format: 'KSEG', format version, counts, then the arrays and the terms. */
const MAGIC = 0x4745534b;
const FORMAT_VERSION = 1;
const HEADER_WORDS = 7;

/** A segment as bytes, for the index store. Integers are little-endian. */
export function encodeSegment(data: SegmentData): Buffer {
  const termBytes = Buffer.from(data.terms.join('\u0000'), 'utf8');
  const arrays = arraysOf(data);
  const header = new Uint32Array([
    MAGIC,
    FORMAT_VERSION,
    data.docIds.length,
    data.terms.length,
    data.postingDocs.length,
    data.positions.length,
    termBytes.length,
  ]);
  return Buffer.concat([
    Buffer.from(header.buffer, header.byteOffset, header.byteLength),
    ...arrays.map((array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength)),
    termBytes,
  ]);
}

/** Reads what `encodeSegment` wrote; throws on a foreign or truncated blob. */
export function decodeSegment(bytes: Uint8Array): SegmentData {
  // One aligned copy: typed-array views need 4-byte alignment, which a blob does not promise.
  if (bytes.byteLength < HEADER_WORDS * 4) throw new Error('not a Kumo index segment');
  const aligned = new Uint8Array(bytes.byteLength);
  aligned.set(bytes);
  const header = new Uint32Array(aligned.buffer, 0, HEADER_WORDS);
  if (header[0] !== MAGIC || header[1] !== FORMAT_VERSION) throw new Error('not a Kumo index segment');
  const [, , docCount, termCount, postingCount, positionCount, termByteLength] =
    header as unknown as number[];
  let offset = HEADER_WORDS * 4;
  const take = (length: number) => {
    if (offset + length * 4 > aligned.byteLength) throw new Error('truncated index segment');
    const array = new Uint32Array(aligned.buffer, offset, length);
    offset += length * 4;
    return array;
  };
  const docIds = take(docCount!);
  const fieldLengths = take(docCount! * FIELD_COUNT);
  const postingStart = take(termCount! + 1);
  const postingDocs = take(postingCount!);
  const positionStart = take(postingCount! + 1);
  const positions = take(positionCount!);
  if (offset + termByteLength! !== aligned.byteLength) throw new Error('truncated index segment');
  const termText = Buffer.from(aligned.buffer, offset, termByteLength).toString('utf8');
  const terms = termCount === 0 ? [] : termText.split('\u0000');
  if (terms.length !== termCount) throw new Error('corrupt index segment terms');
  return { docIds, fieldLengths, terms, postingStart, postingDocs, positionStart, positions };
}

function arraysOf(data: SegmentData): Uint32Array[] {
  return [
    data.docIds,
    data.fieldLengths,
    data.postingStart,
    data.postingDocs,
    data.positionStart,
    data.positions,
  ];
}
