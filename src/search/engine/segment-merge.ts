import { GrowableUint32Array } from '../../util/index.js';
import { FIELD_COUNT } from './fields.js';
import { Segment } from './segment.js';

/** Where a merge put each live document. */
export interface MergedSegment {
  segment: Segment;
  /** Global document ids by new ordinal (the same as `segment.docIds`). */
  docIds: Uint32Array;
}

/**
 * Merges segments (oldest first) into one, leaving out deleted documents. Documents keep their
 * relative order, so postings stay ascending by plain concatenation.
 */
export function mergeSegments(id: number, segments: readonly Segment[]): MergedSegment {
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

  // Each term with the (segment, term ordinal) pairs holding it, from one pass over every
  // segment's terms: looking every term up in every segment would cost terms x segments lookups.
  const holders = new Map<string, number[]>();
  segments.forEach((segment, index) => {
    segment.forEachTerm((term, ordinal) => {
      const list = holders.get(term);
      if (list === undefined) holders.set(term, [index, ordinal]);
      else list.push(index, ordinal);
    });
  });

  const postingStart = new Uint32Array(holders.size + 1);
  const postingDocs = new GrowableUint32Array(1 << 16);
  const positionStart = new GrowableUint32Array(1 << 16);
  const positions = new GrowableUint32Array(1 << 20);
  const kept: string[] = [];
  for (const [term, list] of holders) {
    const firstPosting = postingDocs.length;
    for (let at = 0; at < list.length; at += 2) {
      const index = list[at]!;
      const termOrdinal = list[at + 1]!;
      const {
        docs,
        positionStart: positionStarts,
        positions: source,
      } = segments[index]!.postingsOf(termOrdinal);
      const remap = remaps[index]!;
      for (let posting = 0; posting < docs.length; posting += 1) {
        const target = remap[docs[posting]!]!;
        if (target < 0) continue;
        postingDocs.push(target);
        positionStart.push(positions.length);
        positions.pushRange(source, positionStarts[posting]!, positionStarts[posting + 1]!);
      }
    }
    // A term whose every document was deleted disappears with them.
    if (postingDocs.length === firstPosting) continue;
    postingStart[kept.length] = firstPosting;
    kept.push(term);
  }
  postingStart[kept.length] = postingDocs.length;
  positionStart.push(positions.length);
  const segment = new Segment(id, {
    docIds,
    fieldLengths,
    terms: kept,
    postingStart: postingStart.slice(0, kept.length + 1),
    postingDocs: postingDocs.toArray(),
    positionStart: positionStart.toArray(),
    positions: positions.toArray(),
  });
  return { segment, docIds };
}
