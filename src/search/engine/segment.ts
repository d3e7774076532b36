import { FIELD_COUNT } from './fields.js';

/** The arrays of a segment's inverted index, as built, merged or decoded; see `Segment`. */
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
 * merging go through this and never through a segment's arrays, so a segment may hand out views
 * of arrays it holds or lists it read from storage (docs/design/search-engine.md, Segments).
 */
export interface TermPostings {
  /** Local document ordinals, ascending (deleted documents included). */
  readonly docs: Uint32Array;
  /** Positions of `docs[i]` are `positions[positionStart[i] .. positionStart[i + 1])`; one longer than `docs`. */
  readonly positionStart: Uint32Array;
  /** Field-tagged positions (fields.ts `positionOf`), ascending within a document. */
  readonly positions: Uint32Array;
}

/**
 * An immutable slice of the inverted index, built from one batch of documents or merged from
 * several segments, as Lucene does: a batch never rewrites what is already indexed, and a
 * replaced or removed document is only marked in `deleted` until a merge drops it.
 */
export class Segment {
  readonly docCount: number;
  readonly termCount: number;
  /** 1 where the document was replaced or removed since the segment was built. */
  readonly deleted: Uint8Array;
  private readonly termOrdinals: Map<string, number>;
  private deletedCount = 0;

  constructor(
    readonly id: number,
    /** The arrays, for storing the segment (segment-codec.ts); searches use the methods below. */
    readonly data: SegmentData,
    deleted?: Uint8Array,
  ) {
    this.docCount = data.docIds.length;
    this.termCount = data.terms.length;
    this.deleted = deleted ?? new Uint8Array(this.docCount);
    for (const flag of this.deleted) this.deletedCount += flag;
    this.termOrdinals = new Map();
    data.terms.forEach((term, ordinal) => this.termOrdinals.set(term, ordinal));
  }

  get liveCount(): number {
    return this.docCount - this.deletedCount;
  }

  get deletedRatio(): number {
    return this.docCount === 0 ? 0 : this.deletedCount / this.docCount;
  }

  /** Global document ids by local ordinal. */
  get docIds(): Uint32Array {
    return this.data.docIds;
  }

  /** Stream tokens of each field: `fieldLengths[ordinal * FIELD_COUNT + field]`. */
  get fieldLengths(): Uint32Array {
    return this.data.fieldLengths;
  }

  markDeleted(ordinal: number): void {
    if (this.deleted[ordinal] === 1) return;
    this.deleted[ordinal] = 1;
    this.deletedCount += 1;
  }

  isLive(ordinal: number): boolean {
    return this.deleted[ordinal] === 0;
  }

  termOrdinal(term: string): number | undefined {
    return this.termOrdinals.get(term);
  }

  /** Each term with its ordinal, in ordinal order. */
  forEachTerm(visit: (term: string, ordinal: number) => void): void {
    this.data.terms.forEach((term, ordinal) => visit(term, ordinal));
  }

  /** Documents holding the term (deleted ones included, as in every document frequency); 0 without it. */
  documentFrequency(term: string): number {
    const ordinal = this.termOrdinals.get(term);
    if (ordinal === undefined) return 0;
    return this.data.postingStart[ordinal + 1]! - this.data.postingStart[ordinal]!;
  }

  /** The postings of the term, or undefined when the segment lacks it. */
  termPostings(term: string): TermPostings | undefined {
    const ordinal = this.termOrdinals.get(term);
    return ordinal === undefined ? undefined : this.postingsOf(ordinal);
  }

  /** The postings of the term with this ordinal: views of the segment's arrays, nothing copied. */
  postingsOf(termOrdinal: number): TermPostings {
    const { postingStart, postingDocs, positionStart, positions } = this.data;
    const start = postingStart[termOrdinal]!;
    const end = postingStart[termOrdinal + 1]!;
    return {
      docs: postingDocs.subarray(start, end),
      positionStart: positionStart.subarray(start, end + 1),
      positions,
    };
  }

  fieldLength(ordinal: number, field: number): number {
    return this.data.fieldLengths[ordinal * FIELD_COUNT + field]!;
  }
}
