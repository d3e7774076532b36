import { termsWithCharacter } from './character-terms.js';
import { type ClauseMatches, EMPTY_MATCHES } from './clause-matches.js';
import { matchEdgePhrase } from './edge-phrase.js';
import { FIELD_COUNT, FIELD_SHIFT, fieldOfPosition } from './fields.js';
import type { Clause } from './query-plan.js';
import type { PostingRange, Segment } from './segment.js';

export type { ClauseMatches } from './clause-matches.js';

/** Matches a clause in a segment: adjacent stream terms, or a lone character anywhere. */
export function matchClause(segment: Segment, clause: Clause): ClauseMatches {
  const matches =
    clause.loneCharacter !== undefined
      ? matchLoneCharacter(segment, clause.loneCharacter)
      : clause.openEdges.first || clause.openEdges.last
        ? matchEdgePhrase(segment, clause.tokens, clause.openEdges)
        : matchPhrase(segment, clause.tokens);
  if (matches.docs.length === 0 || clause.words.length === 0) return matches;
  return { ...matches, wordTf: wordFrequencies(segment, clause.words, matches.docs) };
}

/** Documents where `tokens` occur adjacent and in order, with the count of such occurrences per field. */
function matchPhrase(segment: Segment, tokens: readonly string[]): ClauseMatches {
  const ranges: PostingRange[] = [];
  for (const token of tokens) {
    const range = segment.postings(token);
    if (range === undefined) return EMPTY_MATCHES;
    ranges.push(range);
  }
  if (ranges.length === 0) return EMPTY_MATCHES;
  if (ranges.length === 1) return matchTerm(segment, ranges[0]!);
  // Drive the intersection from the rarest term.
  let driver = 0;
  ranges.forEach((range, index) => {
    if (range.end - range.start < ranges[driver]!.end - ranges[driver]!.start) driver = index;
  });
  const { postingDocs, positionStart, positions } = segment.data;
  const driverRange = ranges[driver]!;
  const capacity = driverRange.end - driverRange.start;
  const docs = new Uint32Array(capacity);
  const tf = new Float32Array(capacity * FIELD_COUNT);
  const cursors = ranges.map((range) => range.start);
  const pointers = new Uint32Array(ranges.length);
  const ends = new Uint32Array(ranges.length);
  let count = 0;
  for (let posting = driverRange.start; posting < driverRange.end; posting += 1) {
    const ordinal = postingDocs[posting]!;
    if (!segment.isLive(ordinal)) continue;
    let all = true;
    for (let index = 0; index < ranges.length; index += 1) {
      const range = ranges[index]!;
      const found = segment.seek(range, ordinal, cursors[index]!);
      cursors[index] = found;
      if (found >= range.end || postingDocs[found] !== ordinal) {
        all = false;
        break;
      }
      pointers[index] = positionStart[found]!;
      ends[index] = positionStart[found + 1]!;
    }
    if (!all) continue;
    const tfOffset = count * FIELD_COUNT;
    if (countAdjacent(positions, pointers, ends, tf, tfOffset) === 0) continue;
    docs[count] = ordinal;
    count += 1;
  }
  return { docs: docs.subarray(0, count), tf: tf.subarray(0, count * FIELD_COUNT), wordTf: undefined };
}

/** A single term: every live posting, its positions counted per field. */
function matchTerm(segment: Segment, range: PostingRange): ClauseMatches {
  const { postingDocs, positionStart, positions } = segment.data;
  const deleted = segment.deleted;
  const capacity = range.end - range.start;
  const docs = new Uint32Array(capacity);
  const tf = new Float32Array(capacity * FIELD_COUNT);
  let count = 0;
  for (let posting = range.start; posting < range.end; posting += 1) {
    const ordinal = postingDocs[posting]!;
    if (deleted[ordinal] === 1) continue;
    addFieldCounts(positions, positionStart[posting]!, positionStart[posting + 1]!, tf, count * FIELD_COUNT);
    docs[count] = ordinal;
    count += 1;
  }
  return { docs: docs.subarray(0, count), tf: tf.subarray(0, count * FIELD_COUNT), wordTf: undefined };
}

/**
 * Adds the count of positions in [start, end) of each field to `tf` at `tfOffset`. Positions are
 * ascending and carry their field in their high bits, so each field's are one stretch, found by
 * a binary search rather than a look at each: a common word has hundreds a page. Counts are
 * whole numbers, the same in float32 whether added at once or one by one.
 */
function addFieldCounts(
  positions: Uint32Array,
  start: number,
  end: number,
  tf: Float32Array,
  tfOffset: number,
): void {
  let slot = start;
  while (slot < end) {
    const field = fieldOfPosition(positions[slot]!);
    const nextField = (field + 1) << FIELD_SHIFT;
    let low = slot + 1;
    let high = end;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (positions[middle]! < nextField) low = middle + 1;
      else high = middle;
    }
    tf[tfOffset + field]! += low - slot;
    slot = low;
  }
}

/**
 * Occurrences of the phrase in one document, added per field to `tf` at `tfOffset`: positions p
 * of the first term with p + i among the positions of term i. `pointers` and `ends` delimit each
 * term's positions and are consumed.
 */
function countAdjacent(
  positions: Uint32Array,
  pointers: Uint32Array,
  ends: Uint32Array,
  tf: Float32Array,
  tfOffset: number,
): number {
  let total = 0;
  const terms = pointers.length;
  for (let slot = pointers[0]!; slot < ends[0]!; slot += 1) {
    const start = positions[slot]!;
    let matched = true;
    for (let term = 1; term < terms; term += 1) {
      const wanted = start + term;
      let pointer = pointers[term]!;
      const end = ends[term]!;
      while (pointer < end && positions[pointer]! < wanted) pointer += 1;
      pointers[term] = pointer;
      if (pointer >= end || positions[pointer] !== wanted) {
        matched = false;
        break;
      }
    }
    if (matched) {
      tf[tfOffset + fieldOfPosition(start)]! += 1;
      total += 1;
    }
  }
  return total;
}

/**
 * A lone Japanese character occurs wherever a bigram starts or ends with it, or as a run of its
 * own. Inside a run a character is both the end of one bigram and the start of the next, so its
 * occurrences in a field are counted as the larger of the two counts (exact but for the first
 * and last characters of runs), in one pass over the postings without sorting positions: a
 * character such as の occurs millions of times in a large index.
 */
function matchLoneCharacter(segment: Segment, character: string): ClauseMatches {
  const { postingStart, postingDocs, positionStart, positions } = segment.data;
  const starts = new Float32Array(segment.docCount * FIELD_COUNT);
  const ends = new Float32Array(segment.docCount * FIELD_COUNT);
  const seen = new Uint8Array(segment.docCount);
  let count = 0;
  const { unigram, starting, ending } = termsWithCharacter(segment, character);
  const terms = [
    ...(unigram === undefined ? [] : [{ term: unigram, counts: starts }]),
    ...starting.map((term) => ({ term, counts: starts })),
    ...ending.map((term) => ({ term, counts: ends })),
  ];
  for (const { term, counts } of terms) {
    for (let posting = postingStart[term]!; posting < postingStart[term + 1]!; posting += 1) {
      const doc = postingDocs[posting]!;
      if (!segment.isLive(doc)) continue;
      if (seen[doc] === 0) {
        seen[doc] = 1;
        count += 1;
      }
      for (let slot = positionStart[posting]!; slot < positionStart[posting + 1]!; slot += 1) {
        counts[doc * FIELD_COUNT + fieldOfPosition(positions[slot]!)]! += 1;
      }
    }
  }
  if (count === 0) return EMPTY_MATCHES;
  const docs = new Uint32Array(count);
  const tf = new Float32Array(count * FIELD_COUNT);
  let index = 0;
  for (let doc = 0; doc < segment.docCount; doc += 1) {
    if (seen[doc] === 0) continue;
    docs[index] = doc;
    for (let field = 0; field < FIELD_COUNT; field += 1) {
      const at = doc * FIELD_COUNT + field;
      tf[index * FIELD_COUNT + field] = Math.max(starts[at]!, ends[at]!);
    }
    index += 1;
  }
  return { docs, tf, wordTf: undefined };
}

/** Mean per-field occurrences of the words in each of `docs`. */
function wordFrequencies(segment: Segment, words: readonly string[], docs: Uint32Array): Float32Array {
  const tf = new Float32Array(docs.length * FIELD_COUNT);
  const { postingDocs, positionStart, positions } = segment.data;
  for (const word of words) {
    const range = segment.postings(word);
    if (range === undefined) continue;
    let cursor = range.start;
    docs.forEach((ordinal, index) => {
      cursor = segment.seek(range, ordinal, cursor);
      if (cursor >= range.end || postingDocs[cursor] !== ordinal) return;
      for (let slot = positionStart[cursor]!; slot < positionStart[cursor + 1]!; slot += 1) {
        tf[index * FIELD_COUNT + fieldOfPosition(positions[slot]!)]! += 1 / words.length;
      }
    });
  }
  return tf;
}

/** Ascending token positions. */
export type OccurrenceStarts = ArrayLike<number> & Iterable<number>;

/**
 * Start positions of the clause's occurrences in one document, ascending (for proximity). A lone
 * character has none: its occurrences are scattered over many terms and it is rare in queries
 * of several words.
 */
export function occurrenceStarts(segment: Segment, clause: Clause, ordinal: number): OccurrenceStarts {
  if (clause.tokens.length === 0) return [];
  const { postingDocs, positionStart, positions } = segment.data;
  const postingsOfDoc: number[] = [];
  for (const token of clause.tokens) {
    const range = segment.postings(token);
    if (range === undefined) return [];
    const found = segment.seek(range, ordinal, range.start);
    if (found >= range.end || postingDocs[found] !== ordinal) return [];
    postingsOfDoc.push(found);
  }
  const first = postingsOfDoc[0]!;
  // A clause of one token starts at each of its positions: the stored list as it is, which for a
  // common word is hundreds of positions a page.
  if (postingsOfDoc.length === 1) return positions.subarray(positionStart[first]!, positionStart[first + 1]!);
  const starts: number[] = [];
  for (let slot = positionStart[first]!; slot < positionStart[first + 1]!; slot += 1) {
    const start = positions[slot]!;
    const adjacent = postingsOfDoc.every((posting, term) => {
      if (term === 0) return true;
      return binarySearch(positions, positionStart[posting]!, positionStart[posting + 1]!, start + term);
    });
    if (adjacent) starts.push(start);
  }
  return starts;
}

function binarySearch(values: Uint32Array, start: number, end: number, wanted: number): boolean {
  let low = start;
  let high = end;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! < wanted) low = middle + 1;
    else high = middle;
  }
  return low < end && values[low] === wanted;
}
