import type { HitSet } from '../engine/hit-set.js';
import type { IndexSnapshot } from '../search-index-types.js';
import { normalizeText } from '../analyzer.js';

export type SortField = 'score' | 'last_modified' | 'title' | 'click';

export interface SortKey {
  field: SortField;
  order: 'asc' | 'desc';
}

/** Title ranks of every document (normalized code-point order), cached per index generation. */
const titleRankCache = new WeakMap<IndexSnapshot['segments'], Map<number, number>>();

function titleRanks(snapshot: IndexSnapshot): Map<number, number> {
  const cached = titleRankCache.get(snapshot.segments);
  if (cached !== undefined) return cached;
  const titles: { id: number; key: string }[] = [];
  for (const loaded of snapshot.segments) {
    loaded.summaries.forEach((summary, ordinal) => {
      // A replaced document's old summary stays at its deleted ordinal: its title is the old one.
      if (summary !== undefined && loaded.segment.isLive(ordinal)) {
        titles.push({ id: summary.id, key: normalizeText(summary.title) });
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
 * full-width and half-width alike); a document's click count comes from `clicksOf`.
 */
export function hitComparator(
  snapshot: IndexSnapshot,
  hits: HitSet,
  keys: readonly SortKey[],
  clicksOf: (url: string) => number,
): (a: number, b: number) => number {
  const summaryOf = (hit: number) => snapshot.segments[hits.segment[hit]!]!.summaries[hits.ordinal[hit]!]!;
  const valueReaders = keys.map((key): ((hit: number) => number) => {
    switch (key.field) {
      case 'score':
        return (hit) => hits.score[hit]!;
      case 'last_modified':
        return (hit) => summaryOf(hit).lastModified;
      case 'title': {
        const ranks = titleRanks(snapshot);
        return (hit) => ranks.get(summaryOf(hit).id) ?? 0;
      }
      case 'click': {
        const clicks = new Float64Array(hits.count).fill(-1);
        return (hit) => {
          if (clicks[hit]! < 0) clicks[hit] = clicksOf(summaryOf(hit).url);
          return clicks[hit]!;
        };
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
    return summaryOf(a).id - summaryOf(b).id;
  };
}
