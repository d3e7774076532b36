import { termsWithCharacter } from './character-terms.js';
import { type ClauseMatches, EMPTY_MATCHES } from './clause-matches.js';
import { FIELD_COUNT, fieldOfPosition } from './fields.js';
import type { Segment } from './segment.js';

/** One place of the phrase: the postings of its terms merged, by document. */
interface Slot {
  docs: Uint32Array;
  /** Positions of docs[i] are positions[starts[i] .. starts[i + 1]], ascending. */
  starts: Uint32Array;
  positions: Uint32Array;
}

/** doc * KEY_SCALE + position stays below 2^53 for segments of fewer than 2^26 documents. */
const KEY_SCALE = 0x8000000;

/**
 * A word of several runs whose first or last run is a single Japanese character (`X線`, `3月`,
 * `第1`): in text that character may belong to a longer run (`X線検査`, `3月期`, `次第1`), where
 * the index holds it inside a bigram. So the first place also matches bigrams ending with the
 * character, and the last place bigrams starting with it; a bigram's position is its first
 * character's, which keeps the places adjacent. Rare, so built for correctness: each place's
 * postings are merged into one list before the usual adjacency check.
 */
export function matchEdgePhrase(
  segment: Segment,
  tokens: readonly string[],
  openEdges: { first: boolean; last: boolean },
): ClauseMatches {
  const slots: Slot[] = [];
  for (const [index, token] of tokens.entries()) {
    const terms = termsOfPlace(
      segment,
      token,
      index === 0 && openEdges.first,
      index === tokens.length - 1 && openEdges.last,
    );
    const slot = mergedPostings(segment, terms);
    if (slot.docs.length === 0) return EMPTY_MATCHES;
    slots.push(slot);
  }
  const driver = slots.reduce((best, slot) => (slot.docs.length < best.docs.length ? slot : best));
  const docs: number[] = [];
  const tfs: number[] = [];
  for (const doc of driver.docs) {
    const lists = slots.map((slot) => positionsOf(slot, doc));
    if (lists.some((list) => list === undefined)) continue;
    const counts = new Array<number>(FIELD_COUNT).fill(0);
    let total = 0;
    for (const start of lists[0]!) {
      if (lists.every((list, place) => place === 0 || contains(list!, start + place))) {
        counts[fieldOfPosition(start)]! += 1;
        total += 1;
      }
    }
    if (total === 0) continue;
    docs.push(doc);
    tfs.push(...counts);
  }
  return { docs: Uint32Array.from(docs), tf: Float32Array.from(tfs), wordTf: undefined };
}

function termsOfPlace(segment: Segment, token: string, endsBigram: boolean, startsBigram: boolean): string[] {
  if (!endsBigram && !startsBigram) return [token];
  const { unigram, starting, ending } = termsWithCharacter(segment, token);
  return [
    ...(unigram === undefined ? [] : [unigram]),
    ...(endsBigram ? ending : []),
    ...(startsBigram ? starting : []),
  ];
}

/** The live postings of several terms as one list by document, positions merged without repeats. */
function mergedPostings(segment: Segment, terms: readonly string[]): Slot {
  const keys: number[] = [];
  for (const term of terms) {
    const postings = segment.termPostings(term);
    if (postings === undefined) continue;
    const { docs: postingDocs } = postings;
    // Every posting of the terms: their blocks are not kept.
    const reader = postings.positionReader(false);
    for (let posting = 0; posting < postingDocs.length; posting += 1) {
      const doc = postingDocs[posting]!;
      if (!segment.isLive(doc)) continue;
      for (const position of reader.positionsOf(posting)) keys.push(doc * KEY_SCALE + position);
    }
  }
  const sorted = Float64Array.from(keys).sort();
  const docs: number[] = [];
  const starts: number[] = [];
  const merged: number[] = [];
  let previous = -1;
  for (const key of sorted) {
    if (key === previous) continue;
    previous = key;
    const doc = Math.floor(key / KEY_SCALE);
    if (docs[docs.length - 1] !== doc) {
      docs.push(doc);
      starts.push(merged.length);
    }
    merged.push(key - doc * KEY_SCALE);
  }
  starts.push(merged.length);
  return {
    docs: Uint32Array.from(docs),
    starts: Uint32Array.from(starts),
    positions: Uint32Array.from(merged),
  };
}

function positionsOf(slot: Slot, doc: number): Uint32Array | undefined {
  let low = 0;
  let high = slot.docs.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (slot.docs[middle]! < doc) low = middle + 1;
    else high = middle;
  }
  if (slot.docs[low] !== doc) return undefined;
  return slot.positions.subarray(slot.starts[low]!, slot.starts[low + 1]!);
}

function contains(sorted: Uint32Array, value: number): boolean {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return sorted[low] === value;
}
