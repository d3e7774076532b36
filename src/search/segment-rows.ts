import { encodeDocArrays, TermEncoder } from './engine/segment-codec.js';
import type { BuiltSegment, PositionedPostings } from './engine/segment.js';
import type { SegmentTermRows } from './storage/segment-term-rows.js';

/**
 * Where a segment's term rows go: the index file's `segment_terms`, and `segment_term_positions`
 * for the blocks of a term of several.
 */
export type TermRowSink = Pick<SegmentTermRows, 'insert' | 'insertBlock'>;

/**
 * Writes each term given to it as rows of segment `segmentId`, encoded (segment-codec.ts): its
 * row, holding its positions when they are one block, else a row for each block. Terms come in
 * the file's order (`compareTerms`), so rows are appended to the end of the tables' trees.
 */
export function termRowWriter(
  sink: TermRowSink,
  segmentId: number,
): (term: string, postings: PositionedPostings) => void {
  const encoder = new TermEncoder();
  return (term, postings) => {
    const { head, positions, blockEnds } = encoder.encode(postings);
    if (blockEnds.length === 1) {
      sink.insert(segmentId, term, postings.docs.length, head, positions);
      return;
    }
    sink.insert(segmentId, term, postings.docs.length, head, null);
    let start = 0;
    blockEnds.forEach((end, block) => {
      sink.insertBlock(segmentId, term, block, positions.subarray(start, end));
      start = end;
    });
  };
}

/** A segment as stored: its documents' arrays for `segments.data`, its terms written to `sink`. */
export function storeSegmentTerms(sink: TermRowSink, segment: BuiltSegment): Buffer {
  const write = termRowWriter(sink, segment.id);
  for (const { term, postings } of segment.termsWithPositions()) write(term, postings);
  return encodeDocArrays(segment);
}
