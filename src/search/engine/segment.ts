import { FIELD_COUNT, fieldOfPosition } from './fields.js';

/** The arrays of a segment's inverted index as built in memory from one batch; see `BuiltSegment`. */
export interface SegmentData {
  /** Global document ids (the `documents` table's id) by local ordinal. */
  docIds: Uint32Array;
  /** Stream tokens of each field: `fieldLengths[ordinal * FIELD_COUNT + field]`. */
  fieldLengths: Uint32Array;
  /** Terms by term ordinal. */
  terms: string[];
  /** Postings of term t are `postingStart[t] .. postingStart[t + 1]`. */
  postingStart: Uint32Array;
  /** Local document ordinal of each posting, ascending within a term. */
  postingDocs: Uint32Array;
  /** Positions of posting p are `positionStart[p] .. positionStart[p + 1]`, ascending. */
  positionStart: Uint32Array;
  /** Field-tagged positions (fields.ts `positionOf`). */
  positions: Uint32Array;
}

/**
 * The postings of one term in one segment: everything a search reads of a term. Matching and
 * merging go through this and never through a segment's storage, so a segment may hand out views
 * of arrays it holds or lists it read from storage (docs/design/search-engine.md, Segments).
 * Counts per field are apart from positions: a word alone is scored by its counts, and only a
 * phrase, proximity or a merge reads positions, a document at a time.
 */
export interface TermPostings {
  /** Local document ordinals, ascending (deleted documents included). */
  readonly docs: Uint32Array;
  /**
   * Occurrences of the term in each field of `docs[i]`: `fieldCounts[i * FIELD_COUNT + field]`,
   * whole numbers (exact in float32 below 2^24, beyond MAX_FIELD_TOKENS), the layout of a clause's tf.
   */
  readonly fieldCounts: Float32Array;
  /** Bytes of the arrays the postings hold: what keeping them costs (postings-cache.ts). */
  readonly byteLength: number;
  /**
   * Reads positions, a document at a time. Each use takes its own reader, which keeps the block
   * it read last; a stored segment keeps the blocks it decodes in a shared cache unless `keep` is
   * false (a scan of every posting, which would push out the blocks of the common queries' best hits).
   */
  positionReader(keep?: boolean): PositionReader;
}

/** The positions of a term's documents, by posting (the index of the document in `docs`). */
export interface PositionReader {
  /** Field-tagged positions (fields.ts `positionOf`) of `docs[posting]`, ascending; do not modify. */
  positionsOf(posting: number): Uint32Array;
  /**
   * The same positions without a view made for them: the array holding them, their start and end
   * in it written to `range[2 * slot]` and `range[2 * slot + 1]`. A phrase through a million
   * documents made millions of views.
   */
  locate(posting: number, range: Uint32Array, slot: number): Uint32Array;
}

/** A term's postings with every position at hand: what a segment is built, merged and stored from. */
export interface PositionedPostings {
  /** Local document ordinals, ascending. */
  readonly docs: Uint32Array;
  /** Positions of `docs[i]` are `positions[positionStart[i] .. positionStart[i + 1])`; one longer than `docs`. */
  readonly positionStart: Uint32Array;
  /** Field-tagged positions (fields.ts `positionOf`), ascending within a document. */
  readonly positions: Uint32Array;
}

/**
 * Postings held as arrays (a built segment's, or a term read whole): counts taken from positions
 * when first asked for, which a merge never does.
 */
export class ArrayPostings implements TermPostings, PositionReader {
  private counts: Float32Array | undefined;

  constructor(private readonly arrays: PositionedPostings) {}

  get docs(): Uint32Array {
    return this.arrays.docs;
  }

  get fieldCounts(): Float32Array {
    if (this.counts !== undefined) return this.counts;
    const { docs, positionStart, positions } = this.arrays;
    const counts = new Float32Array(docs.length * FIELD_COUNT);
    for (let posting = 0; posting < docs.length; posting += 1) {
      for (let slot = positionStart[posting]!; slot < positionStart[posting + 1]!; slot += 1)
        counts[posting * FIELD_COUNT + fieldOfPosition(positions[slot]!)]! += 1;
    }
    this.counts = counts;
    return counts;
  }

  /** Counted with the counts a search will take from them. */
  get byteLength(): number {
    const { docs, positionStart, positions } = this.arrays;
    return docs.byteLength + positionStart.byteLength + positions.byteLength + docs.length * FIELD_COUNT * 4;
  }

  positionReader(): PositionReader {
    return this;
  }

  positionsOf(posting: number): Uint32Array {
    const { positionStart, positions } = this.arrays;
    return positions.subarray(positionStart[posting]!, positionStart[posting + 1]!);
  }

  locate(posting: number, range: Uint32Array, slot: number): Uint32Array {
    const { positionStart, positions } = this.arrays;
    range[2 * slot] = positionStart[posting]!;
    range[2 * slot + 1] = positionStart[posting + 1]!;
    return positions;
  }
}

/** Terms read at a time when a segment's terms are read in order. */
export const TERM_PAGE = 1024;

/** A term of a segment with the number of documents holding it (deleted ones included). */
export interface SegmentTerm {
  term: string;
  docCount: number;
}

/**
 * Orders terms as the index file does (SQLite's binary order of UTF-8, which is code point
 * order): a surrogate, half of a character past U+FFFF, sorts after every other code unit.
 */
export function compareTerms(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index += 1) {
    const left = a.charCodeAt(index);
    const right = b.charCodeAt(index);
    if (left === right) continue;
    const leftSurrogate = left >= 0xd800 && left <= 0xdfff;
    const rightSurrogate = right >= 0xd800 && right <= 0xdfff;
    if (leftSurrogate === rightSurrogate) return left - right;
    return leftSurrogate ? 1 : -1;
  }
  return a.length - b.length;
}

/**
 * An immutable slice of the inverted index, built from one batch of documents or merged from
 * several segments, as Lucene does: a batch never rewrites what is already indexed, and a
 * replaced or removed document is only marked in `deleted` until a merge drops it. A segment
 * holds its documents' arrays; where its terms live is up to the kind of segment: in memory as
 * built (`BuiltSegment`), or in the index file, read term by term (stored-segment.ts).
 */
export abstract class Segment {
  readonly docCount: number;
  /** 1 where the document was replaced or removed since the segment was built. */
  readonly deleted: Uint8Array;
  private deletedCount = 0;

  constructor(
    readonly id: number,
    /** Global document ids by local ordinal. */
    readonly docIds: Uint32Array,
    /** Stream tokens of each field: `fieldLengths[ordinal * FIELD_COUNT + field]`. */
    readonly fieldLengths: Uint32Array,
    deleted?: Uint8Array,
  ) {
    this.docCount = docIds.length;
    this.deleted = deleted ?? new Uint8Array(this.docCount);
    for (const flag of this.deleted) this.deletedCount += flag;
  }

  get liveCount(): number {
    return this.docCount - this.deletedCount;
  }

  get deletedRatio(): number {
    return this.docCount === 0 ? 0 : this.deletedCount / this.docCount;
  }

  markDeleted(ordinal: number): void {
    if (this.deleted[ordinal] === 1) return;
    this.deleted[ordinal] = 1;
    this.deletedCount += 1;
  }

  isLive(ordinal: number): boolean {
    return this.deleted[ordinal] === 0;
  }

  fieldLength(ordinal: number, field: number): number {
    return this.fieldLengths[ordinal * FIELD_COUNT + field]!;
  }

  /** Documents holding the term (deleted ones included, as in every document frequency); 0 without it. */
  abstract documentFrequency(term: string): number;

  /** The postings of the term, or undefined when the segment lacks it. */
  abstract termPostings(term: string): TermPostings | undefined;

  /** Each term with its document count, in `compareTerms` order. */
  forEachTerm(visit: (term: string, docCount: number) => void): void {
    for (const page of this.termPages()) for (const { term, docCount } of page) visit(term, docCount);
  }

  /** The terms with their document counts, in `compareTerms` order, a page at a time (TERM_PAGE). */
  abstract termPages(): Iterable<readonly SegmentTerm[]>;

  /** Up to `limit` terms starting with `prefix` (itself included), in `compareTerms` order. */
  abstract termsWithPrefix(prefix: string, limit: number): SegmentTerm[];

  /** Each term with its postings, in `compareTerms` order: what a merge reads. */
  abstract termsWithPostings(): Iterable<{ term: string; postings: TermPostings }>;
}

/** A segment held in memory as built from a batch, until it is stored in the index file. */
export class BuiltSegment extends Segment {
  private readonly termOrdinals: Map<string, number>;
  private sortedOrdinals: Uint32Array | undefined;

  constructor(
    id: number,
    /** The arrays, for storing the segment (segment-codec.ts). */
    readonly data: SegmentData,
    deleted?: Uint8Array,
  ) {
    super(id, data.docIds, data.fieldLengths, deleted);
    this.termOrdinals = new Map();
    data.terms.forEach((term, ordinal) => this.termOrdinals.set(term, ordinal));
  }

  documentFrequency(term: string): number {
    const ordinal = this.termOrdinals.get(term);
    if (ordinal === undefined) return 0;
    return this.data.postingStart[ordinal + 1]! - this.data.postingStart[ordinal]!;
  }

  termPostings(term: string): TermPostings | undefined {
    const ordinal = this.termOrdinals.get(term);
    return ordinal === undefined ? undefined : new ArrayPostings(this.postingsOf(ordinal));
  }

  *termPages(): Iterable<readonly SegmentTerm[]> {
    const { terms, postingStart } = this.data;
    const sorted = this.sorted();
    for (let start = 0; start < sorted.length; start += TERM_PAGE) {
      yield Array.from(sorted.subarray(start, start + TERM_PAGE), (ordinal) => ({
        term: terms[ordinal]!,
        docCount: postingStart[ordinal + 1]! - postingStart[ordinal]!,
      }));
    }
  }

  termsWithPrefix(prefix: string, limit: number): SegmentTerm[] {
    const found: SegmentTerm[] = [];
    this.forEachTerm((term, docCount) => {
      if (found.length < limit && term.startsWith(prefix)) found.push({ term, docCount });
    });
    return found;
  }

  *termsWithPostings(): Iterable<{ term: string; postings: TermPostings }> {
    for (const { term, postings } of this.termsWithPositions())
      yield { term, postings: new ArrayPostings(postings) };
  }

  /** Each term with its postings as built, in `compareTerms` order: what storing the segment writes. */
  *termsWithPositions(): Iterable<{ term: string; postings: PositionedPostings }> {
    for (const ordinal of this.sorted())
      yield { term: this.data.terms[ordinal]!, postings: this.postingsOf(ordinal) };
  }

  /** The postings of the term with this ordinal: views of the segment's arrays, nothing copied. */
  private postingsOf(termOrdinal: number): PositionedPostings {
    const { postingStart, postingDocs, positionStart, positions } = this.data;
    const start = postingStart[termOrdinal]!;
    const end = postingStart[termOrdinal + 1]!;
    return {
      docs: postingDocs.subarray(start, end),
      positionStart: positionStart.subarray(start, end + 1),
      positions,
    };
  }

  /** Term ordinals in `compareTerms` order, sorted once. */
  private sorted(): Uint32Array {
    if (this.sortedOrdinals === undefined) {
      const { terms } = this.data;
      const ordinals = Array.from({ length: terms.length }, (_, ordinal) => ordinal);
      ordinals.sort((a, b) => compareTerms(terms[a]!, terms[b]!));
      this.sortedOrdinals = Uint32Array.from(ordinals);
    }
    return this.sortedOrdinals;
  }
}
