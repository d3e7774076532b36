import { normalizeText } from '../analyzer.js';
import type { CountedPhrases } from './phrase-counts.js';
import { readingKey, typedReadingKey } from './reading-keys.js';
import { type PrefixEntry, PrefixTable } from './prefix-table.js';
import { LargestValues } from './largest-values.js';
import { ITEMS_PER_PAUSE, runNow, type Work } from './work-slices.js';
import type { Vocabulary } from './vocabulary.js';

/** One completion `{word, point}` of the suggest answer (docs/reference/site-search.md, Suggest). */
export interface Suggestion {
  word: string;
  point: number;
}

/** What the index part of a suggester is built from: what the index holds. */
export interface SuggestIndexParts {
  /** The phrases of titles and headings offered, with their points (offeredPhrases). */
  phrasePoints: ReadonlyMap<string, number>;
  /** Phrases only the site's template and section labels hold: never offered, not even as words of the text. */
  template: ReadonlySet<string>;
  /** Katakana readings of Japanese phrases, where known (phrase-readings.ts). */
  readings: ReadonlyMap<string, string>;
  vocabulary: Vocabulary;
}

/** What the query part of a suggester is built from: what visitors did. */
export interface SuggestQueryParts {
  /** Successful queries (normalized) and how often they were asked. */
  queryCounts: ReadonlyMap<string, number>;
  /** Clicks on results, per normalized query. */
  queryClicks: ReadonlyMap<string, number>;
}

/** What a suggester is built from: what visitors did, and what the index holds. */
export type SuggestSources = SuggestIndexParts & SuggestQueryParts;

/**
 * Phrases and words must occur in at least this many documents to be offered, unless a title
 * holds them: on a large site a phrase of a single heading is as often an id as a topic. Small
 * sites offer every phrase.
 */
const MIN_FREQUENCY = 2;
const SMALL_INDEX_DOCUMENTS = 1000;
/**
 * Phrases of titles and headings offered at most, those of the best points: a site of a million
 * pages has a million titles, and what a suggester holds stays bounded whatever the site's size.
 */
export const MAX_OFFERED_PHRASES = 100_000;
/** Past queries offered at most: the most asked ones; the long tail of one-off queries adds little. */
const MAX_LOGGED_QUERIES = 100_000;
const MANY_LOGGED_QUERIES = 1000;
/**
 * Points of each kind of completion, best first: queries that led to clicks, queries asked,
 * phrases of titles and headings, then words of the whole text. Each kind ranks within its band.
 */
const CLICKED_BAND = [0.75, 1] as const;
const ASKED_BAND = [0.5, 0.75] as const;
const PHRASE_BAND = [0.1, 0.5] as const;
const WORD_BAND = [0, 0.1] as const;
/** A title counts this many times a heading: a page is about its title. */
const TITLE_WEIGHT = 2;
/** A completion found by its reading (かそう → 仮想ホスト) ranks a little below one found as written. */
const READING_FACTOR = 0.9;

const inBand = ([low, high]: readonly [number, number], value: number, most: number) =>
  low + ((high - low) * Math.log(1 + value)) / Math.log(1 + Math.max(1, most));

/**
 * The phrases of titles and headings suggest offers, with their points: those in enough
 * documents or in a title, at most MAX_OFFERED_PHRASES of the best points (of equal points, the
 * first counted). Work in slices (work-slices.ts).
 */
export function* offeredPhrases(
  phrases: Omit<CountedPhrases, 'template'>,
  documentCount: number,
): Work<Map<string, number>> {
  const documents = Math.max(2, documentCount);
  const minimumFrequency = documentCount < SMALL_INDEX_DOCUMENTS ? 1 : MIN_FREQUENCY;
  const best = new LargestValues<number>(MAX_OFFERED_PHRASES);
  const { texts } = phrases;
  // The counts' length, not the texts': the counter's texts grow with its later counts.
  for (let id = 0; id < phrases.documents.length; id += 1) {
    if (id % (ITEMS_PER_PAUSE * 8) === 0) yield;
    const frequency = phrases.documents[id]!;
    const titles = phrases.titles[id]!;
    if (frequency === 0 || (frequency < minimumFrequency && titles === 0)) continue;
    // A phrase that only adds a word after a space to its head, found exactly where its head
    // is ("AddCharset ディレクティブ" beside "AddCharset", a label after a name), offers no
    // other choice than its head: only the head is offered. A Japanese phrase joined by a
    // particle (ステータスバーの表示) is a phrase of its own and stays.
    const head = phrases.heads[id]!;
    if (
      head >= 0 &&
      texts.lengthOf(id) > texts.lengthOf(head) &&
      texts.charCodeAt(id, texts.lengthOf(head)) === SPACE &&
      phrases.documents[head] === frequency &&
      phrases.titles[head] === titles
    )
      continue;
    best.offer(id, inBand(PHRASE_BAND, frequency + (TITLE_WEIGHT - 1) * titles, TITLE_WEIGHT * documents));
  }
  const offered = new Map<string, number>();
  let done = 0;
  for (const [id, point] of yield* best.toMap()) {
    if (++done % ITEMS_PER_PAUSE === 0) yield;
    offered.set(texts.textOf(id), point);
  }
  return offered;
}

const SPACE = 0x20;

/**
 * The completions the index offers (phrases of titles and headings, words of the text), by
 * their written form and by their readings: the costly part of a suggester, built again only
 * when the index changes (search-activity.ts), in slices (work-slices.ts).
 */
export class IndexCompletions {
  private constructor(
    readonly written: PrefixTable,
    readonly spoken: PrefixTable,
  ) {}

  static readonly none = new IndexCompletions(PrefixTable.empty, PrefixTable.empty);

  static *of(sources: SuggestIndexParts): Work<IndexCompletions> {
    const points = new Map<string, number>();
    const keep = (key: string, point: number) => {
      if (key === '' || point <= (points.get(key) ?? -1)) return;
      points.set(key, point);
    };
    const { vocabulary, phrasePoints } = sources;
    const documents = Math.max(2, vocabulary.documentCount);
    const minimumFrequency = vocabulary.documentCount < SMALL_INDEX_DOCUMENTS ? 1 : MIN_FREQUENCY;
    let done = 0;
    for (const [phrase, point] of phrasePoints) {
      if (++done % ITEMS_PER_PAUSE === 0) yield;
      keep(phrase, point);
    }
    // Japanese words of the text are left out: the segmenter's cuts inside compounds are not
    // always a reader's, and a completion must never end inside a word (suggest-phrases.ts).
    for (const [word, frequency] of vocabulary.latin) {
      if (++done % ITEMS_PER_PAUSE === 0) yield;
      if (frequency >= minimumFrequency && isOfferedWord(word) && !sources.template.has(word))
        keep(word, inBand(WORD_BAND, frequency, documents));
    }
    const written: PrefixEntry[] = [];
    for (const [key, point] of points) {
      if (++done % ITEMS_PER_PAUSE === 0) yield;
      written.push({ key, word: key, point });
    }
    const spoken: PrefixEntry[] = [];
    for (const [phrase, reading] of sources.readings) {
      if (++done % ITEMS_PER_PAUSE === 0) yield;
      const point = phrasePoints.get(phrase);
      if (point !== undefined)
        spoken.push({ key: readingKey(reading), word: phrase, point: point * READING_FACTOR });
    }
    return new IndexCompletions(yield* PrefixTable.of(written), yield* PrefixTable.of(spoken));
  }
}

/** The completions past queries offer: small, built again when queries or clicks came. */
export function* queryCompletions(sources: SuggestQueryParts): Work<PrefixTable> {
  // Once many different queries are logged, one asked a single time is as often a typo or a
  // probe as a need, and would show to every visitor: it then takes two askings to be offered.
  const minimumAsked = sources.queryCounts.size < MANY_LOGGED_QUERIES ? 1 : 2;
  const asked = [...sources.queryCounts]
    .filter(([, count]) => count >= minimumAsked)
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_LOGGED_QUERIES);
  yield;
  const mostAsked = asked[0]?.[1] ?? 1;
  let mostClicked = 1;
  for (const [query] of asked) mostClicked = Math.max(mostClicked, sources.queryClicks.get(query) ?? 0);
  const points = new Map<string, number>();
  let done = 0;
  for (const [query, count] of asked) {
    if (++done % ITEMS_PER_PAUSE === 0) yield;
    const clicks = sources.queryClicks.get(query) ?? 0;
    const key = suggestionKey(query);
    const point =
      clicks > 0 ? inBand(CLICKED_BAND, clicks, mostClicked) : inBand(ASKED_BAND, count, mostAsked);
    if (key !== '' && point > (points.get(key) ?? -1)) points.set(key, point);
  }
  return yield* PrefixTable.of([...points].map(([key, point]) => ({ key, word: key, point })));
}

/**
 * Completions of what a visitor is typing (docs/reference/site-search.md, Suggest): past
 * queries that led to clicks, then past queries, then whole phrases of titles and headings by
 * document frequency, then words of the text. The typed text is completed as a whole, never by
 * gluing its head to an unrelated word; kana or romaji typed also completes Japanese phrases by
 * their readings.
 */
export class Suggester {
  readonly queries: PrefixTable;

  constructor(
    readonly index: IndexCompletions,
    queries?: PrefixTable,
  ) {
    this.queries = queries ?? PrefixTable.empty;
  }

  /** A suggester built at once (small indexes, tests). */
  static of(sources: SuggestSources): Suggester {
    return new Suggester(runNow(IndexCompletions.of(sources)), runNow(queryCompletions(sources)));
  }

  /**
   * Up to `limit` completions of `query`, best first: those that start with what was typed, then
   * those whose reading does (a visitor typing `set` on a Japanese site means SetHandler before
   * 設定), each kind by its points.
   */
  suggest(query: string, limit: number): Suggestion[] {
    const key = suggestionKey(query);
    if (key === '') return [];
    // A word in both tables counts with its better point (best per prefix of each table is
    // enough: a word among the best of the union is among the best of its own table).
    const written = new Map<string, number>();
    for (const table of [this.index.written, this.queries]) {
      for (const entry of table.withPrefix(key))
        if (entry.point > (written.get(entry.word) ?? -1)) written.set(entry.word, entry.point);
    }
    const answer = [...written].sort(byPoint).slice(0, limit);
    const spokenKey = typedReadingKey(key);
    if (spokenKey !== undefined && answer.length < limit) {
      const spoken = new Map<string, number>();
      for (const entry of this.index.spoken.withPrefix(spokenKey)) {
        if (!written.has(entry.word) && entry.point > (spoken.get(entry.word) ?? -1))
          spoken.set(entry.word, entry.point);
      }
      // Points stay in answer order: a reading match never shows a higher point than the last written one.
      const ceiling = answer.at(-1)?.[1] ?? 1;
      for (const [word, point] of [...spoken].sort(byPoint).slice(0, limit - answer.length))
        answer.push([word, Math.min(point, ceiling)]);
    }
    return answer.map(([word, point]) => ({ word, point: Math.round(point * 1000) / 1000 }));
  }
}

function byPoint(a: [string, number], b: [string, number]): number {
  return b[1] - a[1] || (a[0] < b[0] ? -1 : 1);
}

/** A query as suggest compares it: normalized, spaces collapsed. */
export function suggestionKey(query: string): string {
  return normalizeText(query).replace(/\s+/g, ' ').trim();
}

/** Whether a word of the text (not of a title or heading) is offered: not a number, not too short. */
function isOfferedWord(word: string): boolean {
  return word.length >= 3 && !/^\d+$/.test(word);
}
