import { encodeDocArrays, TermEncoder } from './engine/segment-codec.js';
import type { MergedTermWriter } from './engine/segment-merge.js';
import type { BuiltSegment, PositionedPostings } from './engine/segment.js';
import type { SegmentTermRows } from './storage/segment-term-rows.js';

/**
 * Where a segment's term rows go: the index file's `segment_terms`, and `segment_term_positions`
 * for the blocks of a term of several.
 */
export type TermRowSink = Pick<SegmentTermRows, 'insert' | 'insertBlock'>;

/**
 * Writes terms as rows of segment `segmentId`, encoded (segment-codec.ts): a term's row, holding
 * its positions when they are one block, else a row for each block, written as each is complete.
 * Terms come in the file's order (`compareTerms`), so rows are appended to the end of the
 * tables' trees.
 */
export class TermRowWriter implements MergedTermWriter {
  private readonly encoder: TermEncoder;
  private term = '';

  constructor(
    private readonly sink: TermRowSink,
    private readonly segmentId: number,
  ) {
    this.encoder = new TermEncoder((block, bytes) => sink.insertBlock(segmentId, this.term, block, bytes));
  }

  startTerm(term: string): void {
    this.term = term;
    this.encoder.start();
  }

  addPosting(doc: number, positions: Uint32Array, from: number, to: number): void {
    this.encoder.add(doc, positions, from, to);
  }

  /** Writes the term's row; a term given no posting (its documents all deleted) has none. */
  endTerm(): void {
    const encoded = this.encoder.end();
    if (encoded !== undefined)
      this.sink.insert(this.segmentId, this.term, encoded.docCount, encoded.head, encoded.inlineBlock);
  }

  /** A whole term at once: a segment built from a batch. */
  write(term: string, { docs, positionStart, positions }: PositionedPostings): void {
    this.startTerm(term);
    for (let posting = 0; posting < docs.length; posting += 1)
      this.addPosting(docs[posting]!, positions, positionStart[posting]!, positionStart[posting + 1]!);
    this.endTerm();
  }
}

/** A segment as stored: its documents' arrays for `segments.data`, its terms written to `sink`. */
export function storeSegmentTerms(sink: TermRowSink, segment: BuiltSegment): Buffer {
  const writer = new TermRowWriter(sink, segment.id);
  for (const { term, postings } of segment.termsWithPositions()) writer.write(term, postings);
  return encodeDocArrays(segment);
}
