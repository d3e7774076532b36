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
