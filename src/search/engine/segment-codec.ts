import { FIELD_COUNT, fieldOfPosition } from './fields.js';
import type { PositionedPostings } from './segment.js';
import { VarintReader, VarintWriter } from './varint.js';

/**
 * Stored segment formats (docs/design/search-engine.md, Segments). A segment is stored as its
 * documents' arrays (one value) and one row per term holding that term's postings, so a search
 * reads only the terms it looks for. Both are LEB128 varints; ascending runs are stored as gaps.
 */
const DOC_ARRAYS_MAGIC = 0x4144534b; // 'KSDA'

/**
 * Postings formats of a segment's term rows, recorded in its documents' arrays: format 1 (index
 * formats 12 to 14) kept each term's positions in its one value, read whole by every search of
 * the term; format 2 keeps the counts per field in the term's row and the positions in blocks
 * (`TermEncoder`), read only where a phrase, proximity or a merge needs them.
 */
export type PostingsFormat = 1 | 2;
/** The postings format of the segments this version writes, which is the version of their documents' arrays. */
export const CURRENT_POSTINGS_FORMAT: PostingsFormat = 2;

/** Global document ids and per-field stream lengths of a segment's documents, by ordinal. */
export interface DocArrays {
  docIds: Uint32Array;
  /** `fieldLengths[ordinal * FIELD_COUNT + field]`. */
  fieldLengths: Uint32Array;
}

/**
 * A segment's document arrays as bytes: magic, version, document count, then the arrays. The
 * version says how the segment's terms are stored: a segment written now is of postings format 2.
 */
export function encodeDocArrays({ docIds, fieldLengths }: DocArrays): Buffer {
  const writer = new VarintWriter(docIds.length * (1 + FIELD_COUNT) * 2 + 16);
  writer.write(DOC_ARRAYS_MAGIC);
  writer.write(CURRENT_POSTINGS_FORMAT);
  writer.write(docIds.length);
  writer.plain(docIds);
  writer.plain(fieldLengths);
  return Buffer.from(writer.bytes());
}

/**
 * Reads what `encodeDocArrays` wrote, now or as version 1, with the postings format of the
 * segment's terms; throws on a foreign or truncated value.
 */
export function decodeDocArrays(bytes: Uint8Array): DocArrays & { postingsFormat: PostingsFormat } {
  const reader = new VarintReader(bytes);
  if (reader.read() !== DOC_ARRAYS_MAGIC) throw new Error('not a Kumo index segment');
  const version = reader.read();
  if (version !== 1 && version !== 2) throw new Error('not a Kumo index segment');
  const docCount = reader.read();
  const docIds = reader.plain(docCount);
  const fieldLengths = reader.plain(docCount * FIELD_COUNT);
  reader.expectEnd();
  return { docIds, fieldLengths, postingsFormat: version };
}

/** Most postings of a block of positions: what proximity decodes to read one document's. */
export const POSITION_BLOCK = 128;

/**
 * Bytes after which a block of positions ends (it may pass them by its last document's). A
 * block row stays within the 4,086 bytes SQLite keeps of a row in its B-tree page of 16 KB: a
 * longer row keeps 2 KB there and the rest on an overflow page of its own, most of it unused
 * (a block of 6 KB wasted 12 KB). A term's row holding its single block keeps room for its head.
 */
export const POSITION_BLOCK_BYTES = 3000;

/**
 * Where a term's blocks of positions go as soon as each is complete, `block` counted from 0: a
 * term of several blocks has a row a block (`segment_term_positions`).
 */
export type PositionBlockSink = (block: number, bytes: Uint8Array) => void;

/** A term as `TermEncoder.end` gives it: what its row holds. Views of the encoder's buffers. */
export interface EncodedTerm {
  docCount: number;
  /** Document ordinals, counts per field and where blocks start (`decodePostingsHead`). */
  head: Uint8Array;
  /** The term's positions when they are one block, kept in its row; null when they went to the sink by blocks. */
  inlineBlock: Uint8Array | null;
}

/** A term's documents and counts per field, and the first posting of each block of positions. */
export interface PostingsHead {
  docs: Uint32Array;
  fieldCounts: Float32Array;
  /** Ascending, from 0: a term of one block has `[0]`. */
  blockStarts: Uint32Array;
}

/** What each document's counts per field start with: the mask of its fields, in the low bits. */
const FIELD_MASK_SCALE = 1 << FIELD_COUNT;

/**
 * Encodes terms' postings in format 2, one posting at a time, reusing its buffers from term to
 * term (a segment of a documentation site has hundreds of thousands of terms, most of one
 * document). The head: the document ordinals as gaps, then each document's counts per field:
 * (first field's count - 1) * 2^FIELD_COUNT + the mask of its fields, then (count - 1) of each
 * other field in the mask, so a document holding the term once or twice in one field costs one
 * byte, as the total count did in format 1; then, for a term of several blocks, their count - 1
 * and the first posting of each after the first as gaps. The positions: for each block
 * (POSITION_BLOCK documents at most, ending once past POSITION_BLOCK_BYTES), each document's
 * positions as gaps from 0. A block goes to the sink once the next posting starts another, so
 * the encoder holds one block of positions and the term's heads, whatever the term's size: a
 * word on every page of a million has 40 million positions.
 */
export class TermEncoder {
  private readonly docWriter = new VarintWriter(1 << 16);
  private readonly countWriter = new VarintWriter(1 << 16);
  private readonly blockWriter = new VarintWriter(1 << 13);
  /** Counts of the fields of a posting, in the order of its fields. */
  private readonly counts = new Uint32Array(FIELD_COUNT);
  /** The first posting of each block after the first. */
  private readonly blockStarts: number[] = [];
  private docCount = 0;
  private previousDoc = 0;
  /** The current block is complete: the next posting starts another. */
  private blockFull = false;

  constructor(private readonly blockSink: PositionBlockSink) {}

  /** Starts a term. */
  start(): void {
    this.docWriter.reset();
    this.countWriter.reset();
    this.blockWriter.reset();
    this.blockStarts.length = 0;
    this.docCount = 0;
    this.previousDoc = 0;
    this.blockFull = false;
  }

  /** The term's next posting: document `doc` (above the last), its positions `positions[from .. to)`, ascending. */
  add(doc: number, positions: Uint32Array, from: number, to: number): void {
    const { blockWriter, counts } = this;
    if (this.blockFull) {
      this.blockSink(this.blockStarts.length, blockWriter.bytes());
      blockWriter.reset();
      this.blockStarts.push(this.docCount);
      this.blockFull = false;
    }
    this.docWriter.write(doc - this.previousDoc);
    this.previousDoc = doc;
    // One pass over the positions: their gaps written, their fields counted. Positions are
    // ascending with their field in the high bits, so each field's are one run.
    let previous = 0;
    let mask = 0;
    let fields = 0;
    let field = -1;
    for (let slot = from; slot < to; slot += 1) {
      const position = positions[slot]!;
      const positionField = fieldOfPosition(position);
      if (positionField !== field) {
        field = positionField;
        mask |= 1 << field;
        counts[fields] = 0;
        fields += 1;
      }
      counts[fields - 1]! += 1;
      blockWriter.write(position - previous);
      previous = position;
    }
    if (fields === 0) throw new Error('a posting without positions');
    this.countWriter.write((counts[0]! - 1) * FIELD_MASK_SCALE + mask);
    for (let other = 1; other < fields; other += 1) this.countWriter.write(counts[other]! - 1);
    this.docCount += 1;
    const blockFirst = this.blockStarts[this.blockStarts.length - 1] ?? 0;
    this.blockFull =
      this.docCount - blockFirst === POSITION_BLOCK || blockWriter.length >= POSITION_BLOCK_BYTES;
  }

  /**
   * Ends the term: its last block goes to the sink when it has several, else stays in its row.
   * Undefined for a term given no posting.
   */
  end(): EncodedTerm | undefined {
    if (this.docCount === 0) return undefined;
    const { docWriter, blockStarts } = this;
    docWriter.append(this.countWriter.bytes());
    if (blockStarts.length === 0)
      return { docCount: this.docCount, head: docWriter.bytes(), inlineBlock: this.blockWriter.bytes() };
    this.blockSink(blockStarts.length, this.blockWriter.bytes());
    docWriter.write(blockStarts.length);
    docWriter.gaps(blockStarts, 0, blockStarts.length);
    return { docCount: this.docCount, head: docWriter.bytes(), inlineBlock: null };
  }
}

const ONE_BLOCK = Uint32Array.of(0);

/** Reads format 2's head of a term of `docCount` documents. */
export function decodePostingsHead(bytes: Uint8Array, docCount: number): PostingsHead {
  const reader = new VarintReader(bytes);
  const docs = reader.gaps(new Uint32Array(docCount));
  const fieldCounts = new Float32Array(docCount * FIELD_COUNT);
  for (let posting = 0; posting < docCount; posting += 1) {
    const first = reader.read();
    const mask = first % FIELD_MASK_SCALE;
    if (mask === 0) throw new Error('corrupt index segment');
    const base = posting * FIELD_COUNT;
    // The first field's count is in the value with the mask; each other field's follows. The
    // mask's bits are walked, not every field tested: most postings are in one field.
    let field = 31 - Math.clz32(mask & -mask);
    fieldCounts[base + field] = Math.floor(first / FIELD_MASK_SCALE) + 1;
    for (let rest = mask & (mask - 1); rest !== 0; rest &= rest - 1) {
      field = 31 - Math.clz32(rest & -rest);
      fieldCounts[base + field] = reader.read() + 1;
    }
  }
  let blockStarts = ONE_BLOCK;
  if (!reader.atEnd()) {
    const later = reader.read();
    blockStarts = new Uint32Array(later + 1);
    reader.gaps(blockStarts.subarray(1));
    for (let block = 1; block <= later; block += 1) {
      if (blockStarts[block]! <= blockStarts[block - 1]! || blockStarts[block]! >= docCount)
        throw new Error('corrupt index segment');
    }
  }
  reader.expectEnd();
  return { docs, fieldCounts, blockStarts };
}

/** A block of positions decoded: posting `first + i`'s are `positions[starts[i] .. starts[i + 1])`. */
export interface PositionBlock {
  starts: Uint32Array;
  positions: Uint32Array;
}

/**
 * The positions of postings `first .. first + count` from their block's bytes: `positions`, with
 * posting `first + i`'s at `starts[i] .. starts[i + 1]`. Each posting's count of positions is the
 * sum of its counts per field.
 */
export function decodePositionBlock(
  bytes: Uint8Array,
  fieldCounts: Float32Array,
  first: number,
  count: number,
): PositionBlock {
  const starts = new Uint32Array(count + 1);
  for (let index = 0; index < count; index += 1) {
    let total = 0;
    const offset = (first + index) * FIELD_COUNT;
    for (let field = 0; field < FIELD_COUNT; field += 1) total += fieldCounts[offset + field]!;
    starts[index + 1] = starts[index]! + total;
  }
  const reader = new VarintReader(bytes);
  const positions = reader.runsOfGaps(new Uint32Array(starts[count]!), starts);
  reader.expectEnd();
  return { starts, positions };
}

/**
 * Reads a term of `docCount` documents stored in postings format 1: the document ordinals as
 * gaps, each document's count of positions, then each document's positions as gaps from 0.
 */
export function decodeFormat1TermPostings(bytes: Uint8Array, docCount: number): PositionedPostings {
  const reader = new VarintReader(bytes);
  const docs = reader.gaps(new Uint32Array(docCount));
  const positionStart = new Uint32Array(docCount + 1);
  for (let posting = 0; posting < docCount; posting += 1)
    positionStart[posting + 1] = positionStart[posting]! + reader.read();
  const positions = reader.runsOfGaps(new Uint32Array(positionStart[docCount]!), positionStart);
  reader.expectEnd();
  return { docs, positionStart, positions };
}
