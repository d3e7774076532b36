import { termsWithCharacter } from './character-terms.js';
import { type ClauseMatches, EMPTY_MATCHES } from './clause-matches.js';
import { matchEdgePhrase } from './edge-phrase.js';
import { FIELD_COUNT, fieldOfPosition } from './fields.js';
import type { Clause } from './query-plan.js';
import { gallopTo } from './gallop.js';
import { POSITION_BLOCK } from './segment-codec.js';
import type { Segment, TermPostings } from './segment.js';

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

/** Terms of more documents than this have their blocks of positions read for a phrase without keeping them. */
const PHRASE_BLOCKS_KEPT_UP_TO = 64 * POSITION_BLOCK;

/** Documents where `tokens` occur adjacent and in order, with the count of such occurrences per field. */
function matchPhrase(segment: Segment, tokens: readonly string[]): ClauseMatches {
  const lists: TermPostings[] = [];
  for (const token of tokens) {
    const postings = segment.termPostings(token);
    if (postings === undefined) return EMPTY_MATCHES;
    lists.push(postings);
  }
  if (lists.length === 0) return EMPTY_MATCHES;
  if (lists.length === 1) return matchTerm(segment, lists[0]!);
  // Drive the intersection from the rarest term.
  const driver = lists.reduce((rarest, list) => (list.docs.length < rarest.docs.length ? list : rarest));
  const capacity = driver.docs.length;
  const docs = new Uint32Array(capacity);
  const tf = new Float32Array(capacity * FIELD_COUNT);
  const cursors = new Uint32Array(lists.length);
  // Blocks of a long list are read once and not kept: a phrase through every block of a common
  // term would only push out of the shared cache the blocks proximity reads again.
  const readers = lists.map((list) => list.positionReader(list.docs.length <= PHRASE_BLOCKS_KEPT_UP_TO));
  const pointers = new Uint32Array(lists.length);
  const termPositions: Uint32Array[] = new Array<Uint32Array>(lists.length);
  const ranges = new Uint32Array(lists.length * 2);
  let count = 0;
  for (const ordinal of driver.docs) {
    if (!segment.isLive(ordinal)) continue;
    let all = true;
    for (let index = 0; index < lists.length; index += 1) {
      const list = lists[index]!;
      const found = gallopTo(list.docs, cursors[index]!, list.docs.length, ordinal);
      cursors[index] = found;
      if (found >= list.docs.length || list.docs[found] !== ordinal) {
        all = false;
        break;
      }
    }
    if (!all) continue;
    // Positions only of the documents holding every term: a block read for each of them.
    for (let index = 0; index < lists.length; index += 1)
      termPositions[index] = readers[index]!.locate(cursors[index]!, ranges, index);
    const tfOffset = count * FIELD_COUNT;
    if (countAdjacent(termPositions, ranges, pointers, tf, tfOffset) === 0) continue;
    docs[count] = ordinal;
    count += 1;
  }
  return { docs: docs.subarray(0, count), tf: tf.subarray(0, count * FIELD_COUNT), wordTf: undefined };
}

/**
 * A single term: every live posting with its counts per field, as stored, without a position
 * read. A segment without deletions hands out the stored arrays themselves (nothing modifies a
 * clause's matches).
 */
function matchTerm(segment: Segment, postings: TermPostings): ClauseMatches {
  const { docs: postingDocs, fieldCounts } = postings;
  const deleted = segment.deleted;
  if (segment.liveCount === segment.docCount)
    return { docs: postingDocs, tf: fieldCounts, wordTf: undefined };
  const capacity = postingDocs.length;
  const docs = new Uint32Array(capacity);
  const tf = new Float32Array(capacity * FIELD_COUNT);
  let count = 0;
  for (let posting = 0; posting < capacity; posting += 1) {
    const ordinal = postingDocs[posting]!;
    if (deleted[ordinal] === 1) continue;
    tf.set(fieldCounts.subarray(posting * FIELD_COUNT, (posting + 1) * FIELD_COUNT), count * FIELD_COUNT);
    docs[count] = ordinal;
    count += 1;
  }
  return { docs: docs.subarray(0, count), tf: tf.subarray(0, count * FIELD_COUNT), wordTf: undefined };
}

/**
 * Occurrences of the phrase in one document, added per field to `tf` at `tfOffset`: positions p
 * of the first term with p + i among the positions of term i, which are
 * `termPositions[i][ranges[2i] .. ranges[2i + 1])` (PositionReader.locate); `pointers` is room
 * for a place in each list.
 */
function countAdjacent(
  termPositions: readonly Uint32Array[],
  ranges: Uint32Array,
  pointers: Uint32Array,
  tf: Float32Array,
  tfOffset: number,
): number {
  let total = 0;
  const terms = termPositions.length;
  for (let term = 1; term < terms; term += 1) pointers[term] = ranges[2 * term]!;
  const firstPositions = termPositions[0]!;
  for (let slot = ranges[0]!; slot < ranges[1]!; slot += 1) {
    const start = firstPositions[slot]!;
    let matched = true;
    for (let term = 1; term < terms; term += 1) {
      const wanted = start + term;
      const positions = termPositions[term]!;
      let pointer = pointers[term]!;
      const end = ranges[2 * term + 1]!;
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
    const postings = segment.termPostings(term);
    if (postings === undefined) continue;
    const { docs: postingDocs, fieldCounts } = postings;
    for (let posting = 0; posting < postingDocs.length; posting += 1) {
      const doc = postingDocs[posting]!;
      if (!segment.isLive(doc)) continue;
      if (seen[doc] === 0) {
        seen[doc] = 1;
        count += 1;
      }
      for (let field = 0; field < FIELD_COUNT; field += 1)
        counts[doc * FIELD_COUNT + field]! += fieldCounts[posting * FIELD_COUNT + field]!;
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
  for (const word of words) {
    const postings = segment.termPostings(word);
    if (postings === undefined) continue;
    const { docs: postingDocs, fieldCounts } = postings;
    const share = 1 / words.length;
    // A share of 1, 1/2, 1/4 ... added n times makes n times the share exactly: one step.
    const exactProducts = Number.isInteger(Math.log2(words.length));
    let cursor = 0;
    // A loop, not forEach: a phrase of common Japanese words has a call per page for each word.
    for (let index = 0; index < docs.length; index += 1) {
      const ordinal = docs[index]!;
      cursor = gallopTo(postingDocs, cursor, postingDocs.length, ordinal);
      if (cursor >= postingDocs.length || postingDocs[cursor] !== ordinal) continue;
      for (let field = 0; field < FIELD_COUNT; field += 1) {
        const occurrences = fieldCounts[cursor * FIELD_COUNT + field]!;
        if (occurrences === 0) continue;
        if (exactProducts) {
          tf[index * FIELD_COUNT + field]! += occurrences * share;
          continue;
        }
        // One by one, as the counts were summed before they were stored: the same float32 sums.
        for (let occurrence = 0; occurrence < occurrences; occurrence += 1)
          tf[index * FIELD_COUNT + field]! += share;
      }
    }
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
  /** The positions of each token in the document. */
  const tokenPositions: Uint32Array[] = [];
  for (const token of clause.tokens) {
    const postings = segment.termPostings(token);
    if (postings === undefined) return [];
    const { docs } = postings;
    const found = gallopTo(docs, 0, docs.length, ordinal);
    if (found >= docs.length || docs[found] !== ordinal) return [];
    tokenPositions.push(postings.positionReader().positionsOf(found));
  }
  const first = tokenPositions[0]!;
  // A clause of one token starts at each of its positions: the stored list as it is, which for a
  // common word is hundreds of positions a page.
  if (tokenPositions.length === 1) return first;
  const starts: number[] = [];
  for (const start of first) {
    const adjacent = tokenPositions.every(
      (positions, term) => term === 0 || binarySearch(positions, 0, positions.length, start + term),
    );
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
