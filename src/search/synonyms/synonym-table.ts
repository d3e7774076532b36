import type { SynonymsConfig } from '../../domain/index.js';
import { STARTER_SYNONYM_GROUPS } from './starter-synonyms.js';
import { synonymKey, wordsOf } from './synonym-key.js';

const JAPANESE_ONLY = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆ヶ]+$/u;

/**
 * A search service's synonyms, ready for queries (docs/reference/site-search.md, Synonyms): for
 * the key of each member (synonym-key.ts), the other forms a query word equal to it also finds.
 * A two-way group gives every member the others; a one-way rule gives `from` its `to`. A member
 * in several groups or rules gets the alternatives of all of them (not their alternatives in
 * turn: expansion is one step).
 */
export class SynonymTable {
  private readonly byKey = new Map<string, string[]>();
  /** Words in the longest member: query runs longer than this are not looked up. */
  readonly maxWords: number;
  /** Characters of the longest member written in Japanese alone, looked up inside query words. */
  readonly maxJapaneseChars: number;

  private constructor(entries: Iterable<{ from: string; to: readonly string[] }>) {
    let maxWords = 0;
    let maxJapaneseChars = 0;
    for (const { from, to } of entries) {
      const key = synonymKey(from);
      if (key === '') continue;
      maxWords = Math.max(maxWords, wordsOf(from).length);
      if (JAPANESE_ONLY.test(key)) maxJapaneseChars = Math.max(maxJapaneseChars, [...key].length);
      const alternatives = this.byKey.get(key) ?? [];
      const known = new Set([key, ...alternatives.map(synonymKey)]);
      for (const alternative of to) {
        const alternativeKey = synonymKey(alternative);
        if (alternativeKey === '' || known.has(alternativeKey)) continue;
        known.add(alternativeKey);
        alternatives.push(alternative);
      }
      if (alternatives.length > 0) this.byKey.set(key, alternatives);
    }
    this.maxWords = maxWords;
    this.maxJapaneseChars = maxJapaneseChars;
  }

  /** The table of a service's configuration: the starter set when turned on, then its own entries. */
  static of(config: SynonymsConfig | undefined): SynonymTable {
    if (config === undefined) return NO_SYNONYMS;
    const groups = [...(config.starter_set === true ? STARTER_SYNONYM_GROUPS : []), ...(config.groups ?? [])];
    return new SynonymTable([
      ...groups.flatMap((group) =>
        group.map((from) => ({ from, to: group.filter((other) => other !== from) })),
      ),
      ...(config.rules ?? []),
    ]);
  }

  get empty(): boolean {
    return this.byKey.size === 0;
  }

  /** The forms (as configured) that a query run with this key also finds; undefined when none. */
  alternativesOf(key: string): readonly string[] | undefined {
    return this.byKey.get(key);
  }

  static readonly none = new SynonymTable([]);
}

const NO_SYNONYMS = SynonymTable.none;
