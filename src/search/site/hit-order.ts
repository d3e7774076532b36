import { topByScore, topK } from '../engine/top-k.js';
import type { HitSet } from '../engine/hit-set.js';
import type { IndexSnapshot, LoadedSegment } from '../search-index-types.js';
import { normalizeText } from '../analyzer.js';

export type SortField = 'score' | 'last_modified' | 'title' | 'click';

export interface SortKey {
  field: SortField;
  order: 'asc' | 'desc';
}

/** What sorting reads of the documents beyond the segments' columns, from the index file. */
export interface SortedDocuments {
  /** The clicks counted on each clicked document of the generation, by id. */
  clickCounts(snapshot: IndexSnapshot): ReadonlyMap<number, number>;
  /** The title of each ordinal of a segment whose document still points at it, null for the others. */
  titlesOf(loaded: LoadedSegment): readonly (string | null)[];
}

/**
 * Title ranks of every document (normalized code-point order), cached per index generation: read
 * the first time a search sorts by title.
 */
const titleRankCache = new WeakMap<IndexSnapshot['segments'], Map<number, number>>();

function titleRanks(snapshot: IndexSnapshot, documents: SortedDocuments): Map<number, number> {
  const cached = titleRankCache.get(snapshot.segments);
  if (cached !== undefined) return cached;
  const titles: { id: number; key: string }[] = [];
  for (const loaded of snapshot.segments) {
    documents.titlesOf(loaded).forEach((title, ordinal) => {
      if (title !== null && loaded.segment.isLive(ordinal)) {
        titles.push({ id: loaded.segment.docIds[ordinal]!, key: normalizeText(title) });
      }
    });
  }
  titles.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id - b.id));
  const ranks = new Map(titles.map((title, rank) => [title.id, rank]));
  titleRankCache.set(snapshot.segments, ranks);
  return ranks;
}

/**
 * A total order of hits for the sort keys (`sort_by`, docs/reference/site-search.md, Search): each
 * key in turn, then the document id, so equal hits keep indexing order and pages never overlap or
 * skip a hit. Titles sort by their normalized text in code-point order (kana in gojūon order,
 * full-width and half-width alike); titles and click counts come from `documents`.
 */
export function hitComparator(
  snapshot: IndexSnapshot,
  hits: HitSet,
  keys: readonly SortKey[],
  documents: SortedDocuments,
): (a: number, b: number) => number {
  const loadedOf = (hit: number) => snapshot.segments[hits.segment[hit]!]!;
  const idOf = (hit: number) => loadedOf(hit).segment.docIds[hits.ordinal[hit]!]!;
  const valueReaders = keys.map((key): ((hit: number) => number) => {
    switch (key.field) {
      case 'score':
        return (hit) => hits.score[hit]!;
      case 'last_modified':
        return (hit) => loadedOf(hit).lastModified[hits.ordinal[hit]!]!;
      case 'title': {
        const ranks = titleRanks(snapshot, documents);
        return (hit) => ranks.get(idOf(hit)) ?? 0;
      }
      case 'click': {
        const clicks = documents.clickCounts(snapshot);
        return (hit) => clicks.get(idOf(hit)) ?? 0;
      }
    }
  });
  const directions = keys.map((key) => (key.order === 'asc' ? 1 : -1));
  return (a, b) => {
    for (let index = 0; index < valueReaders.length; index += 1) {
      const read = valueReaders[index]!;
      const difference = read(a) - read(b);
      if (difference !== 0) return difference * directions[index]!;
    }
    return idOf(a) - idOf(b);
  };
}

/**
 * The `k` best of the `kept` hits for the sort keys, best first (hit indices). Sorted by score
 * alone (the default) the best are picked by their scores in a typed array and only ties at the
 * last place are ordered by id: a comparator call per hit cost more than the rest of a search of
 * a million hits. Other keys compare hits (hitComparator).
 */
export function bestHits(
  snapshot: IndexSnapshot,
  hits: HitSet,
  kept: Uint32Array,
  keys: readonly SortKey[],
  documents: SortedDocuments,
  k: number,
): number[] {
  const compare = hitComparator(snapshot, hits, keys, documents);
  if (keys.length !== 1 || keys[0]!.field !== 'score' || keys[0]!.order !== 'desc')
    return topK(kept.length, k, (a, b) => compare(kept[a]!, kept[b]!)).map((position) => kept[position]!);
  const scores = new Float64Array(kept.length);
  for (let position = 0; position < kept.length; position += 1)
    scores[position] = hits.score[kept[position]!]!;
  const best = topByScore(scores, kept.length, k);
  if (best.length === 0) return [];
  const last = scores[best[best.length - 1]!]!;
  const chosen = best.filter((position) => scores[position]! > last).map((position) => kept[position]!);
  // Of the hits tied at the last place, those of the smallest ids (hitComparator's order): a
  // word on every page of a million ties hundreds of thousands of them.
  const tiedHits = new Uint32Array(kept.length);
  const negatedIds = new Float64Array(kept.length);
  let tiedCount = 0;
  for (let position = 0; position < kept.length; position += 1) {
    if (scores[position] !== last) continue;
    const hit = kept[position]!;
    tiedHits[tiedCount] = hit;
    negatedIds[tiedCount] = -idOf(snapshot, hits, hit);
    tiedCount += 1;
  }
  for (const position of topByScore(negatedIds, tiedCount, k - chosen.length))
    chosen.push(tiedHits[position]!);
  return chosen.sort(compare);
}

function idOf(snapshot: IndexSnapshot, hits: HitSet, hit: number): number {
  return snapshot.segments[hits.segment[hit]!]!.segment.docIds[hits.ordinal[hit]!]!;
}
