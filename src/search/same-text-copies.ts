/**
 * Pages with the same main text are one document in search results (docs/reference/site-search.md,
 * Pages with the same text): of the searchable documents of one type that share a main text key
 * (main-text-key.ts), one is shown, under the shortest URL, and names the others; searches pass
 * the others over. Worked out again for each index generation, from the stored keys.
 */
import type { SameTextRow } from '../store/sqlite/display-head-rows.js';
import type { LoadedSegment } from './search-index-types.js';

/** The copies found in one generation of an index. */
export interface SameTextCopies {
  /** By segment id: the ordinals of the copies searches pass over. */
  hidden: ReadonlyMap<number, readonly number[]>;
  /** By id of the document shown: the URLs of its copies, shortest first. */
  others: ReadonlyMap<number, readonly string[]>;
}

export const NO_COPIES: SameTextCopies = { hidden: new Map(), others: new Map() };

/**
 * The copies among `rows` that `segments` hold searchable: a row of a segment not loaded (a
 * staged run's) or of a deleted or replaced version counts for nothing.
 */
export function sameTextCopiesOf(
  rows: readonly SameTextRow[],
  segments: readonly LoadedSegment[],
): SameTextCopies {
  const byId = new Map(segments.map((loaded) => [loaded.segment.id, loaded]));
  const groups = new Map<string, SameTextRow[]>();
  for (const row of rows) {
    const loaded = byId.get(row.segmentId);
    if (loaded === undefined || !loaded.segment.holds(row.ordinal)) continue;
    if (loaded.summaries[row.ordinal]?.id !== row.id) continue;
    const key = `${row.doctype}:${row.mainKey.toString('hex')}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [row]);
    else group.push(row);
  }
  const hidden = new Map<number, number[]>();
  const others = new Map<number, string[]>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    group.sort((a, b) => shownFirst(a.url, b.url));
    const [shown, ...copies] = group;
    others.set(
      shown!.id,
      copies.map((copy) => copy.url),
    );
    for (const copy of copies) {
      const ordinals = hidden.get(copy.segmentId);
      if (ordinals === undefined) hidden.set(copy.segmentId, [copy.ordinal]);
      else ordinals.push(copy.ordinal);
    }
  }
  return { hidden, others };
}

/** The order of a group's URLs: the shortest first, then in code unit order, so the choice is stable. */
function shownFirst(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** Marks each segment's copies (and only them) as passed over by searches. */
export function markCopies(segments: readonly LoadedSegment[], copies: SameTextCopies): void {
  for (const loaded of segments) loaded.segment.markCopies(copies.hidden.get(loaded.segment.id) ?? []);
}
