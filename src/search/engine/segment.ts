import { FIELD_COUNT } from './fields.js';
import { gallopTo } from './gallop.js';

/** The arrays of a segment's inverted index; see `Segment`. */
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

/** A posting list: the postings of one term in one segment. */
export interface PostingRange {
  start: number;
  end: number;
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

  postings(term: string): PostingRange | undefined {
    const ordinal = this.termOrdinals.get(term);
    if (ordinal === undefined) return undefined;
    return { start: this.data.postingStart[ordinal]!, end: this.data.postingStart[ordinal + 1]! };
  }

  fieldLength(ordinal: number, field: number): number {
    return this.data.fieldLengths[ordinal * FIELD_COUNT + field]!;
  }

  /**
   * The first posting within `range` whose document is >= `ordinal`, galloping from `from`
   * (postings are visited in ascending document order).
   */
  seek(range: PostingRange, ordinal: number, from: number): number {
    return gallopTo(this.data.postingDocs, Math.max(from, range.start), range.end, ordinal);
  }
}
