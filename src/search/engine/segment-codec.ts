import { FIELD_COUNT } from './fields.js';
import type { TermPostings } from './segment.js';
import { VarintReader, VarintWriter } from './varint.js';

/**
 * Stored segment formats (docs/design/search-engine.md, Segments). A segment is stored as its
 * documents' arrays (one value) and one row per term holding that term's postings, so a search
 * reads only the terms it looks for. Both are LEB128 varints; ascending runs are stored as gaps.
 */
const DOC_ARRAYS_MAGIC = 0x4144534b; // 'KSDA'
const DOC_ARRAYS_VERSION = 1;

/** Global document ids and per-field stream lengths of a segment's documents, by ordinal. */
export interface DocArrays {
  docIds: Uint32Array;
  /** `fieldLengths[ordinal * FIELD_COUNT + field]`. */
  fieldLengths: Uint32Array;
}

/** A segment's document arrays as bytes: magic, version, document count, then the arrays. */
export function encodeDocArrays({ docIds, fieldLengths }: DocArrays): Buffer {
  const writer = new VarintWriter(docIds.length * (1 + FIELD_COUNT) * 2 + 16);
  writer.write(DOC_ARRAYS_MAGIC);
  writer.write(DOC_ARRAYS_VERSION);
  writer.write(docIds.length);
  writer.plain(docIds);
  writer.plain(fieldLengths);
  return Buffer.from(writer.bytes());
}

/** Reads what `encodeDocArrays` wrote; throws on a foreign or truncated value. */
export function decodeDocArrays(bytes: Uint8Array): DocArrays {
  const reader = new VarintReader(bytes);
  if (reader.read() !== DOC_ARRAYS_MAGIC || reader.read() !== DOC_ARRAYS_VERSION)
    throw new Error('not a Kumo index segment');
  const docCount = reader.read();
  const docIds = reader.plain(docCount);
  const fieldLengths = reader.plain(docCount * FIELD_COUNT);
  reader.expectEnd();
  return { docIds, fieldLengths };
}

/**
 * A term's postings as bytes: the document ordinals as gaps, each document's count of
 * positions, then each document's positions as gaps from 0. The number of documents is stored
 * beside the bytes (the term row's `doc_count`), for document frequencies read without them.
 * Written into `writer` (reset first), whose bytes are valid until its next use.
 */
export function encodeTermPostings(postings: TermPostings, writer: VarintWriter): Buffer {
  const { docs, positionStart, positions } = postings;
  writer.reset();
  writer.gaps(docs, 0, docs.length);
  for (let posting = 0; posting < docs.length; posting += 1)
    writer.write(positionStart[posting + 1]! - positionStart[posting]!);
  for (let posting = 0; posting < docs.length; posting += 1)
    writer.gaps(positions, positionStart[posting]!, positionStart[posting + 1]!);
  return writer.bytes();
}

/** Reads what `encodeTermPostings` wrote for a term of `docCount` documents. */
export function decodeTermPostings(bytes: Uint8Array, docCount: number): TermPostings {
  const reader = new VarintReader(bytes);
  const docs = reader.runsOfGaps(new Uint32Array(docCount), Uint32Array.of(0, docCount));
  const positionStart = new Uint32Array(docCount + 1);
  for (let posting = 0; posting < docCount; posting += 1)
    positionStart[posting + 1] = positionStart[posting]! + reader.read();
  const positions = reader.runsOfGaps(new Uint32Array(positionStart[docCount]!), positionStart);
  reader.expectEnd();
  return { docs, positionStart, positions };
}
