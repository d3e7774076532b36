import { GrowableUint32Array } from '../../util/index.js';
import { FIELD_COUNT } from './fields.js';
import type { DocArrays } from './segment-codec.js';
import { compareTerms, type PositionedPostings, type Segment, type TermPostings } from './segment.js';

/** Where a merge put each live document: the merged segment's document arrays. */
export type MergedDocuments = DocArrays;

/**
 * Merges segments (oldest first) into one, leaving out deleted documents, term by term in
 * `compareTerms` order: each merged term's postings go to `write` as soon as they are made, so a
 * merge holds one term at a time, whatever the segments' size. Documents keep their relative
 * order, so postings stay ascending by plain concatenation.
 */
export function mergeSegments(
  segments: readonly Segment[],
  write: (term: string, postings: PositionedPostings) => void,
): MergedDocuments {
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

  const postingDocs = new GrowableUint32Array(1 << 12);
  const positionStart = new GrowableUint32Array(1 << 12);
  const positions = new GrowableUint32Array(1 << 14);
  const cursors = segments.map((segment) => new TermCursor(segment.termsWithPostings()));
  for (;;) {
    let term: string | undefined;
    for (const cursor of cursors) {
      const head = cursor.head;
      if (head !== undefined && (term === undefined || compareTerms(head.term, term) < 0)) term = head.term;
    }
    if (term === undefined) break;
    postingDocs.clear();
    positionStart.clear();
    positions.clear();
    cursors.forEach((cursor, index) => {
      if (cursor.head?.term !== term) return;
      const { docs } = cursor.head.postings;
      const reader = cursor.head.postings.positionReader(false);
      const remap = remaps[index]!;
      for (let posting = 0; posting < docs.length; posting += 1) {
        const target = remap[docs[posting]!]!;
        if (target < 0) continue;
        postingDocs.push(target);
        positionStart.push(positions.length);
        const source = reader.positionsOf(posting);
        positions.pushRange(source, 0, source.length);
      }
      cursor.advance();
    });
    // A term whose every document was deleted disappears with them.
    if (postingDocs.length === 0) continue;
    positionStart.push(positions.length);
    write(term, {
      docs: postingDocs.view(),
      positionStart: positionStart.view(),
      positions: positions.view(),
    });
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
