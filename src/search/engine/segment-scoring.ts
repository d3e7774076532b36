import { FIELD_COUNT } from './fields.js';
import { bm25f } from './ranking.js';

/** What scores one clause's occurrences in the documents of one segment. */
export interface SegmentScorer {
  /** The clause's documents in the segment, ascending. */
  docs: Uint32Array;
  tf: Float32Array;
  wordTf: Float32Array;
  idf: number;
  wordIdf: number;
}

/**
 * A clause's place among the query's clauses: `slot` numbers it, `formSlot` is the slot of the
 * word it is another form of (-1 for none, query-plan.ts, Clause.formOf).
 */
interface Slotted {
  weight: number;
  slot: number;
  formSlot: number;
}

export interface ScoringPart extends Slotted, SegmentScorer {}

export interface ScoringClause extends Slotted {
  own: SegmentScorer;
  /** The words of a quoted phrase, which score the documents the phrase matches. */
  parts: ScoringPart[];
}

/** A query as one segment scores it (matcher.ts, findHits). */
export interface SegmentQuery {
  /** By required group, the documents of each of its clauses (those weighing nothing included). */
  groups: readonly (readonly Uint32Array[])[];
  /** The documents of each excluded clause. */
  excluded: readonly Uint32Array[];
  /** The clauses that score, in the plan's order. */
  clauses: readonly ScoringClause[];
  /** How many slots the clauses and their parts number. */
  slotCount: number;
}

/** The mark of a document an excluded clause matches. */
const EXCLUDED = 255;
/** The mark of a candidate already gathered. */
const GATHERED = 254;

/**
 * Arrays by ordinal reused from search to search (a search runs on one thread, start to end), so
 * a million-page segment costs no allocation a query.
 */
class Scratch {
  /** By ordinal: how many groups matched, in order, or EXCLUDED. */
  marks = new Uint8Array(0);
  scores = new Float64Array(0);
  /** By ordinal: the phrase being scored matched it. */
  phrase = new Uint8Array(0);
  /** By slot that another clause is a form of: by ordinal, whether that clause was found. */
  found: Uint8Array[] = [];

  reserve(docCount: number, trackedSlots: number): void {
    if (this.marks.length < docCount) {
      this.marks = new Uint8Array(docCount);
      this.scores = new Float64Array(docCount);
      this.phrase = new Uint8Array(docCount);
      this.found = [];
    }
    while (this.found.length < trackedSlots) this.found.push(new Uint8Array(this.marks.length));
  }
}

const scratch = new Scratch();

/**
 * Scores a segment's candidates one clause at a time (term at a time): the documents matching
 * every required group and no excluded clause, each scored as the sum, in the plan's order, of
 * its clauses' BM25F plus their word-view share, a quoted phrase scoring as its words. A form is
 * skipped on a document where its typed word was found (query-plan.ts, Clause.formOf). Walking
 * each clause's list once and adding into arrays by ordinal costs a few operations a posting,
 * where seeking every clause's list at every candidate cost tens: a word on every page of a
 * million is a million of each. `emit` gets the candidates in ascending order.
 */
export function scoreSegment(
  docCount: number,
  query: SegmentQuery,
  weights: Float32Array,
  k1: number,
  wordViewBoost: number,
  emit: (ordinal: number, score: number) => void,
): void {
  const { groups, excluded, clauses } = query;
  const groupCount = groups.length;
  /** Slots another clause is a form of, each with its array of `found` (by slot, -1 none). */
  const tracked = new Int32Array(query.slotCount).fill(-1);
  let trackedCount = 0;
  for (const clause of clauses) {
    for (const { formSlot } of [clause, ...clause.parts])
      if (formSlot >= 0 && tracked[formSlot] === -1) tracked[formSlot] = trackedCount++;
  }
  scratch.reserve(docCount, trackedCount);
  const { marks, scores, phrase, found } = scratch;
  for (let group = 0; group < groupCount; group += 1) {
    for (const docs of groups[group]!) {
      for (let index = 0; index < docs.length; index += 1) {
        const doc = docs[index]!;
        if (marks[doc] === group) marks[doc] = group + 1;
      }
    }
  }
  for (const docs of excluded) {
    for (let index = 0; index < docs.length; index += 1) marks[docs[index]!] = EXCLUDED;
  }
  /** Form chains of clauses (not of a phrase's parts): what a clause's form-of was found on, it was too. */
  const inheritsFrom = new Int32Array(query.slotCount).fill(-1);
  for (const clause of clauses) inheritsFrom[clause.slot] = clause.formSlot;
  const isFound = (slot: number, doc: number): boolean => {
    for (let at = slot; at >= 0; at = inheritsFrom[at]!) if (found[tracked[at]!]![doc] === 1) return true;
    return false;
  };
  const scoreAt = (scorer: SegmentScorer, position: number, weightOffset: number) => {
    const tfOffset = position * FIELD_COUNT;
    const score = bm25f(scorer.tf, tfOffset, weights, weightOffset, k1, scorer.idf);
    // A clause without Japanese words is its own word view: the same value, computed once.
    if (scorer.wordTf === scorer.tf && scorer.wordIdf === scorer.idf) return score + wordViewBoost * score;
    return score + wordViewBoost * bm25f(scorer.wordTf, tfOffset, weights, weightOffset, k1, scorer.wordIdf);
  };
  for (const { weight, slot, formSlot, own, parts } of clauses) {
    const ownFound = tracked[slot]! >= 0 ? found[tracked[slot]!]! : undefined;
    const { docs } = own;
    for (let position = 0; position < docs.length; position += 1) {
      const doc = docs[position]!;
      if (marks[doc] !== groupCount) continue;
      if (ownFound !== undefined) ownFound[doc] = 1;
      // A page holding the form typed scores by it alone: exact forms rank above other forms.
      if (formSlot >= 0 && isFound(formSlot, doc)) continue;
      if (parts.length === 0) scores[doc]! += weight * scoreAt(own, position, doc * FIELD_COUNT);
      else phrase[doc] = 1;
    }
    if (parts.length === 0) continue;
    for (const part of parts) {
      const partFound = tracked[part.slot]! >= 0 ? found[tracked[part.slot]!]! : undefined;
      const partWeight = weight * part.weight;
      const partDocs = part.docs;
      for (let position = 0; position < partDocs.length; position += 1) {
        const doc = partDocs[position]!;
        if (phrase[doc] !== 1) continue;
        if (part.formSlot >= 0 && found[tracked[part.formSlot]!]![doc] === 1) continue;
        if (partFound !== undefined) partFound[doc] = 1;
        scores[doc]! += partWeight * scoreAt(part, position, doc * FIELD_COUNT);
      }
    }
    for (let position = 0; position < docs.length; position += 1) phrase[docs[position]!] = 0;
  }
  emitCandidates(docCount, groups, groupCount, emit);
  clearMarks(groups, excluded, clauses, tracked);
}

/**
 * The candidates in ascending order, their scores reset: gathered from the first group's lists
 * when they are short against the segment, else by a walk of every ordinal.
 */
function emitCandidates(
  docCount: number,
  groups: readonly (readonly Uint32Array[])[],
  groupCount: number,
  emit: (ordinal: number, score: number) => void,
): void {
  const { marks, scores } = scratch;
  const firstGroup = groups[0]!;
  const listed = firstGroup.reduce((sum, docs) => sum + docs.length, 0);
  if (listed * 8 >= docCount) {
    for (let doc = 0; doc < docCount; doc += 1) {
      if (marks[doc] !== groupCount) continue;
      emit(doc, scores[doc]!);
      scores[doc] = 0;
    }
    return;
  }
  const gathered = new Uint32Array(listed);
  let count = 0;
  for (const docs of firstGroup) {
    for (let index = 0; index < docs.length; index += 1) {
      const doc = docs[index]!;
      if (marks[doc] !== groupCount) continue;
      marks[doc] = GATHERED;
      gathered[count++] = doc;
    }
  }
  const candidates = gathered.subarray(0, count).sort();
  for (let index = 0; index < count; index += 1) {
    const doc = candidates[index]!;
    emit(doc, scores[doc]!);
    scores[doc] = 0;
  }
}

/** Sets every array of the scratch back to 0 where this segment's lists touched it. */
function clearMarks(
  groups: readonly (readonly Uint32Array[])[],
  excluded: readonly Uint32Array[],
  clauses: readonly ScoringClause[],
  tracked: Int32Array,
): void {
  const { marks, found } = scratch;
  for (const docs of [...groups.flat(), ...excluded]) {
    for (let index = 0; index < docs.length; index += 1) marks[docs[index]!] = 0;
  }
  for (const clause of clauses) {
    for (const { slot, docs } of [{ slot: clause.slot, docs: clause.own.docs }, ...clause.parts]) {
      const at = tracked[slot]!;
      if (at < 0) continue;
      const slotFound = found[at]!;
      for (let index = 0; index < docs.length; index += 1) slotFound[docs[index]!] = 0;
    }
  }
}
