/**
 * Pages with the same main text are one result (docs/reference/site-search.md, Pages with the
 * same text): the searchable documents of one type that share a main text key (main-text-key.ts)
 * form a group, worked out once per index generation from the stored keys. A search keeps, of the
 * pages of a group among its results (after every filter), the one that comes first for the
 * query's language (a page declaring it, then the page most linked to, then the shortest URL),
 * which names the others. The index itself holds every page: matching, statistics and merges never see
 * the groups, so a filter or a word only a copy has still finds it.
 */
import type { SameTextRow } from './storage/display-head-rows.js';
import type { Segment } from './engine/segment.js';
import { primaryLanguageOf } from './page-language.js';

/** What grouping reads of a loaded segment (search-index-types.ts, LoadedSegment). */
interface GroupedSegment {
  segment: Pick<Segment, 'id' | 'docCount' | 'isLive' | 'docIds'>;
}

/** At most this many URLs of a group are named with the page shown (`duplicate_urls`). */
export const MAX_NAMED_COPIES = 20;

/** No group: the value of an ordinal that is in none. */
export const NO_GROUP = -1;

/** A page of a group. */
interface Member {
  segment: number;
  ordinal: number;
  url: string;
  /** The language the page declares, '' when none (page-language.ts). */
  language: string;
  /** How many pages of its indexing pass link to the page (src/search/storage/inbound-link-counts.ts). */
  inboundLinks: number;
}

/** At most this many languages have their own order of the groups at once (queries rarely ask more). */
const MAX_LANGUAGE_ORDERS = 16;

/**
 * The groups of one generation of an index, in the order for one query language: a group's pages
 * in the query's language first, then the most linked to, then by the shortest URL
 * (docs/reference/site-search.md, Pages with the same text).
 */
export class SameTextGroups {
  static readonly none = new SameTextGroups([], [], '', '');

  /**
   * Aligned with the generation's segments: by ordinal, the document's place in the group
   * list (group * MAX_GROUP_SIZE + its rank in the group), or NO_GROUP; undefined for a segment
   * with no grouped document.
   */
  private readonly places: (Int32Array | undefined)[];
  /** By group: its URLs in the order they are shown in, the first shown first. */
  private readonly urls: string[][] = [];
  /** The other languages' orders, made by the first query of each (kept by the first order only). */
  private readonly orders = new Map<string, SameTextGroups>();

  private constructor(
    private readonly groups: readonly (readonly Member[])[],
    private readonly segmentSizes: readonly number[],
    /** The language this order puts first ('' none). */
    readonly language: string,
    /** The most common language the grouped pages declare: the language of a query that shows none. */
    readonly siteLanguage: string,
  ) {
    this.places = new Array<Int32Array | undefined>(segmentSizes.length).fill(undefined);
    for (const members of groups) {
      const ordered = [...members].sort((a, b) => shownFirst(a, b, language));
      const group = this.urls.length;
      this.urls.push(ordered.map((member) => member.url));
      ordered.forEach((member, rank) => {
        let segmentPlaces = this.places[member.segment];
        if (segmentPlaces === undefined) {
          segmentPlaces = new Int32Array(segmentSizes[member.segment]!).fill(NO_GROUP);
          this.places[member.segment] = segmentPlaces;
        }
        segmentPlaces[member.ordinal] = group * MAX_GROUP_SIZE + rank;
      });
    }
  }

  /** The groups of `rows` among `segments`; a row of a version not searchable counts for nothing. */
  static of(rows: readonly SameTextRow[], segments: readonly GroupedSegment[]): SameTextGroups {
    const indexOf = new Map(segments.map((loaded, index) => [loaded.segment.id, index]));
    const byKey = new Map<string, Member[]>();
    for (const row of rows) {
      const segment = indexOf.get(row.segmentId);
      if (segment === undefined) continue;
      const loaded = segments[segment]!;
      if (!loaded.segment.isLive(row.ordinal) || loaded.segment.docIds[row.ordinal] !== row.id) continue;
      const key = `${row.doctype}:${row.mainKey}`;
      const members = byKey.get(key);
      const member = {
        segment,
        ordinal: row.ordinal,
        url: row.url,
        language: row.language,
        inboundLinks: row.inboundLinks,
      };
      if (members === undefined) byKey.set(key, [member]);
      else members.push(member);
    }
    const groups: Member[][] = [];
    for (const members of byKey.values()) {
      if (members.length < 2 || members.length > MAX_GROUP_SIZE) continue;
      // A place must fit in 31 bits: past that many groups, the rest stay pages of their own.
      if (groups.length === MAX_GROUPS) break;
      groups.push(members);
    }
    const sizes = segments.map((loaded) => loaded.segment.docCount);
    const siteLanguage = mostCommonLanguage(groups);
    return new SameTextGroups(groups, sizes, siteLanguage, siteLanguage);
  }

  /**
   * The groups in the order for a query in `language` (a primary language subtag, `en`; '' for
   * a query that shows none, which takes the site's language). Made once per language.
   */
  forLanguage(language: string): SameTextGroups {
    const wanted = language === '' ? this.siteLanguage : language;
    if (wanted === this.language || this.empty) return this;
    let order = this.orders.get(wanted);
    if (order === undefined) {
      if (this.orders.size >= MAX_LANGUAGE_ORDERS) this.orders.clear();
      order = new SameTextGroups(this.groups, this.segmentSizes, wanted, this.siteLanguage);
      this.orders.set(wanted, order);
    }
    return order;
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

/**
 * The order of a group's pages: those declaring the query's language first, then those more
 * pages link to (the copy a site itself points readers at), then the shortest URL, then in code
 * unit order, so the choice is stable.
 */
function shownFirst(a: Member, b: Member, language: string): number {
  return (
    Number(speaks(b, language)) - Number(speaks(a, language)) ||
    b.inboundLinks - a.inboundLinks ||
    a.url.length - b.url.length ||
    (a.url < b.url ? -1 : a.url > b.url ? 1 : 0)
  );
}

/** Whether a page declares `language` (`en` for `en-gb` too); no page speaks ''. */
function speaks(member: Member, language: string): boolean {
  return language !== '' && primaryLanguageOf(member.language) === language;
}

/**
 * The language most grouped pages declare ('' when none declares one); of equally common ones,
 * English, else the first in code unit order, so the choice is stable.
 */
function mostCommonLanguage(groups: readonly (readonly Member[])[]): string {
  const counts = new Map<string, number>();
  for (const members of groups) {
    for (const member of members) {
      if (member.language === '') continue;
      const language = primaryLanguageOf(member.language);
      counts.set(language, (counts.get(language) ?? 0) + 1);
    }
  }
  let best = '';
  let bestCount = 0;
  for (const [language, count] of [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (count > bestCount || (count === bestCount && language === 'en')) {
      best = language;
      bestCount = count;
    }
  }
  return best;
}

/** Where a result goes among those kept: dropped, for a group whose kept page comes before it. */
export const DROPPED = -1;

/**
 * Keeps, of results given one at a time (in any order), per group the page that comes first in
 * the group's order: the results kept stay in their order, the page kept for a group where the
 * group's first result was.
 */
export class GroupCollapse {
  /** By group: where its result is among those kept, and its rank in the group. */
  private readonly keptAt = new Map<number, { at: number; rank: number }>();

  /**
   * Where a result of `place` goes when `keptCount` are kept: `keptCount` (after them), the slot
   * of its group's result it replaces, or DROPPED.
   */
  slotOf(place: number, keptCount: number): number {
    if (place === NO_GROUP) return keptCount;
    const group = Math.floor(place / MAX_GROUP_SIZE);
    const rank = place % MAX_GROUP_SIZE;
    const seen = this.keptAt.get(group);
    if (seen === undefined) {
      this.keptAt.set(group, { at: keptCount, rank });
      return keptCount;
    }
    if (rank >= seen.rank) return DROPPED;
    seen.rank = rank;
    return seen.at;
  }
}

/** GroupCollapse over a list of results, `placeOf` giving each result's place. */
export function collapseGroups<T>(results: readonly T[], placeOf: (result: T) => number): T[] {
  const kept: T[] = [];
  const collapse = new GroupCollapse();
  for (const result of results) {
    const slot = collapse.slotOf(placeOf(result), kept.length);
    if (slot !== DROPPED) kept[slot] = result;
  }
  return kept;
}
