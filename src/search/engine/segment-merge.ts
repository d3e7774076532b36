import { FIELD_COUNT } from './fields.js';
import type { DocArrays } from './segment-codec.js';
import { compareTerms, type Segment, type TermPostings } from './segment.js';

/** Where a merge put each live document: the merged segment's document arrays. */
export type MergedDocuments = DocArrays;

/** Where a merge writes each merged term, posting by posting (segment-rows.ts, TermRowWriter). */
export interface MergedTermWriter {
  startTerm(term: string): void;
  /** The term's next posting: document `doc` (above the last), its positions `positions[from .. to)`. */
  addPosting(doc: number, positions: Uint32Array, from: number, to: number): void;
  /** Ends the term; one given no posting (its documents all deleted) disappears with them. */
  endTerm(): void;
}

/**
 * Merges segments (oldest first) into one, leaving out deleted documents, term by term in
 * `compareTerms` order: each merged term's postings go to `writer` one by one as they are read,
 * so a merge holds a block of positions at a time, whatever the segments' size (a word on every
 * page of a million has 40 million positions). Documents keep their relative order, so
 * postings stay ascending by plain concatenation.
 */
export function mergeSegments(segments: readonly Segment[], writer: MergedTermWriter): MergedDocuments {
  const remaps: Int32Array[] = [];
  let liveTotal = 0;
  for (const segment of segments) {
    const remap = new Int32Array(segment.docCount).fill(-1);
    for (let ordinal = 0; ordinal < segment.docCount; ordinal += 1) {
      if (segment.isLive(ordinal)) remap[ordinal] = liveTotal++;
    }
    remaps.push(remap);
  }
  const docIds = new Uint32Array(liveTotal);
  const fieldLengths = new Uint32Array(liveTotal * FIELD_COUNT);
  segments.forEach((segment, index) => {
    const remap = remaps[index]!;
    for (let ordinal = 0; ordinal < segment.docCount; ordinal += 1) {
      const target = remap[ordinal]!;
      if (target < 0) continue;
      docIds[target] = segment.docIds[ordinal]!;
      fieldLengths.set(
        segment.fieldLengths.subarray(ordinal * FIELD_COUNT, (ordinal + 1) * FIELD_COUNT),
        target * FIELD_COUNT,
      );
    }
  });

  const cursors = segments.map((segment) => new TermCursor(segment.termsWithPostings()));
  for (;;) {
    let term: string | undefined;
    for (const cursor of cursors) {
      const head = cursor.head;
      if (head !== undefined && (term === undefined || compareTerms(head.term, term) < 0)) term = head.term;
    }
    if (term === undefined) break;
    writer.startTerm(term);
    cursors.forEach((cursor, index) => {
      if (cursor.head?.term !== term) return;
      const { docs } = cursor.head.postings;
      const reader = cursor.head.postings.positionReader(false);
      const remap = remaps[index]!;
      for (let posting = 0; posting < docs.length; posting += 1) {
        const target = remap[docs[posting]!]!;
        if (target < 0) continue;
        const positions = reader.positionsOf(posting);
        writer.addPosting(target, positions, 0, positions.length);
      }
      cursor.advance();
    });
    writer.endTerm();
  }
  return { docIds, fieldLengths };
}

/** A segment's terms in order, one at hand. */
class TermCursor {
  head: { term: string; postings: TermPostings } | undefined;
  private readonly iterator: Iterator<{ term: string; postings: TermPostings }>;

  constructor(terms: Iterable<{ term: string; postings: TermPostings }>) {
    this.iterator = terms[Symbol.iterator]();
    this.advance();
  }

  advance(): void {
    const next = this.iterator.next();
    this.head = next.done === true ? undefined : next.value;
  }
}
