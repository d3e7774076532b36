/**
 * Pages with the same main text are one result (docs/reference/site-search.md, Pages with the
 * same text): the searchable documents of one type that share a main text key (main-text-key.ts)
 * form a group, worked out once per index generation from the stored keys. A search keeps, of the
 * pages of a group among its results (after every filter), the one whose URL comes first, which
 * names the others. The index itself holds every page: matching, statistics and merges never see
 * the groups, so a filter or a word only a copy has still finds it.
 */
import type { SameTextRow } from '../store/sqlite/display-head-rows.js';
import type { Segment } from './engine/segment.js';

/** What grouping reads of a loaded segment (search-index-types.ts, LoadedSegment). */
interface GroupedSegment {
  segment: Pick<Segment, 'id' | 'docCount' | 'isLive'>;
  summaries: readonly ({ id: number } | undefined)[];
}

/** At most this many URLs of a group are named with the page shown (`duplicate_urls`). */
export const MAX_NAMED_COPIES = 20;

/** No group: the value of an ordinal that is in none. */
export const NO_GROUP = -1;

/** The groups of one generation of an index. */
export class SameTextGroups {
  static readonly none = new SameTextGroups([], []);

  private constructor(
    /**
     * Aligned with the generation's segments: by ordinal, the document's place in the group
     * list (group * MAX_GROUP_SIZE + its rank in the group), or NO_GROUP; undefined for a segment
     * with no grouped document.
     */
    private readonly places: readonly (Int32Array | undefined)[],
    /** By group: its URLs in the order they are shown in, the first shown first. */
    private readonly urls: readonly (readonly string[])[],
  ) {}

  /** The groups of `rows` among `segments`; a row of a version not searchable counts for nothing. */
  static of(rows: readonly SameTextRow[], segments: readonly GroupedSegment[]): SameTextGroups {
    const indexOf = new Map(segments.map((loaded, index) => [loaded.segment.id, index]));
    const byKey = new Map<string, { segment: number; ordinal: number; url: string }[]>();
    for (const row of rows) {
      const segment = indexOf.get(row.segmentId);
      if (segment === undefined) continue;
      const loaded = segments[segment]!;
      if (!loaded.segment.isLive(row.ordinal) || loaded.summaries[row.ordinal]?.id !== row.id) continue;
      const key = `${row.doctype}:${row.mainKey.toString('hex')}`;
      const members = byKey.get(key);
      const member = { segment, ordinal: row.ordinal, url: row.url };
      if (members === undefined) byKey.set(key, [member]);
      else members.push(member);
    }
    const places: (Int32Array | undefined)[] = new Array(segments.length).fill(undefined);
    const urls: string[][] = [];
    for (const members of byKey.values()) {
      if (members.length < 2 || members.length > MAX_GROUP_SIZE) continue;
      // A place must fit in 31 bits: past that many groups, the rest stay pages of their own.
      if (urls.length === MAX_GROUPS) break;
      members.sort((a, b) => shownFirst(a.url, b.url));
      const group = urls.length;
      urls.push(members.map((member) => member.url));
      members.forEach((member, rank) => {
        let segmentPlaces = places[member.segment];
        if (segmentPlaces === undefined) {
          segmentPlaces = new Int32Array(segments[member.segment]!.segment.docCount).fill(NO_GROUP);
          places[member.segment] = segmentPlaces;
        }
        segmentPlaces[member.ordinal] = group * MAX_GROUP_SIZE + rank;
      });
    }
    return new SameTextGroups(places, urls);
  }

  /** Whether no page has another with the same text: searches then have nothing to collapse. */
  get empty(): boolean {
    return this.urls.length === 0;
  }

  /** The document's place (group * MAX_GROUP_SIZE + rank), or NO_GROUP. */
  placeOf(segment: number, ordinal: number): number {
    return this.places[segment]?.[ordinal] ?? NO_GROUP;
  }

  /** The URLs of the place's group other than the place's own, in order, at most MAX_NAMED_COPIES. */
  otherUrls(place: number): string[] {
    if (place === NO_GROUP) return [];
    const group = Math.floor(place / MAX_GROUP_SIZE);
    const rank = place % MAX_GROUP_SIZE;
    return this.urls[group]!.filter((_, at) => at !== rank).slice(0, MAX_NAMED_COPIES);
  }
}

/**
 * A group larger than this is not one: so many URLs of one text are a site answering any path
 * with one page (soft 404s, calendar days without events), which a person searching is better
 * shown as they are than folded into one result naming thousands.
 */
export const MAX_GROUP_SIZE = 1000;

/** The most groups whose places fit in an Int32Array (about 2.1 million). */
const MAX_GROUPS = Math.floor(0x7fffffff / MAX_GROUP_SIZE);

/** The order of a group's URLs: the shortest first, then in code unit order, so the choice is stable. */
function shownFirst(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * Of results (in any order), keeps per group the page that comes first in the group's order;
 * `placeOf` gives each result's place. The results kept stay in their order, the page kept for a
 * group where the group's first result was.
 */
export function collapseGroups<T>(results: readonly T[], placeOf: (result: T) => number): T[] {
  const kept: T[] = [];
  const keptAt = new Map<number, { at: number; rank: number }>();
  for (const result of results) {
    const place = placeOf(result);
    if (place === NO_GROUP) {
      kept.push(result);
      continue;
    }
    const group = Math.floor(place / MAX_GROUP_SIZE);
    const rank = place % MAX_GROUP_SIZE;
    const seen = keptAt.get(group);
    if (seen === undefined) {
      keptAt.set(group, { at: kept.length, rank });
      kept.push(result);
    } else if (rank < seen.rank) {
      kept[seen.at] = result;
      seen.rank = rank;
    }
  }
  return kept;
}
