import { encodeDocArrays, encodeTermPostings } from './engine/segment-codec.js';
import type { Segment, TermPostings } from './engine/segment.js';
import { VarintWriter } from './engine/varint.js';

/** Where a segment's term rows go: the index file's `segment_terms` (storage/segment-term-rows.ts). */
export interface TermRowSink {
  insert(segmentId: number, term: string, docCount: number, postings: Uint8Array): void;
}

/**
 * Writes each term given to it as a row of segment `segmentId`, encoded (segment-codec.ts). Terms
 * come in the file's order (`compareTerms`), so rows are appended to the end of the table's tree.
 */
export function termRowWriter(
  sink: TermRowSink,
  segmentId: number,
): (term: string, postings: TermPostings) => void {
  const writer = new VarintWriter(1 << 16);
  return (term, postings) =>
    sink.insert(segmentId, term, postings.docs.length, encodeTermPostings(postings, writer));
}

/** A segment as stored: its documents' arrays for `segments.data`, its terms written to `sink`. */
export function storeSegmentTerms(sink: TermRowSink, segment: Segment): Buffer {
  const write = termRowWriter(sink, segment.id);
  for (const { term, postings } of segment.termsWithPostings()) write(term, postings);
  return encodeDocArrays(segment);
}
