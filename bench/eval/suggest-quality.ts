import { comparableText } from './template-blocks.js';

/** Prefix lengths (code points of the normalized query) a visitor has typed when suggest is asked. */
export const SUGGEST_PREFIX_CHARS: readonly number[] = [2, 3, 4];
/** Completions asked for and judged, as a suggest box shows them. */
export const SUGGEST_DEPTH = 10;

/** Per prefix length: how high the whole query is among the completions of its prefix. */
export interface SuggestFigures {
  prefixChars: number;
  /** Judged queries longer than the prefix (a query is never its own prefix). */
  queries: number;
  /** Mean of 1/rank of the query among the completions, 0 when missing. */
  mrr: number;
  /** Share of those queries found among the first SUGGEST_DEPTH completions. */
  top10Share: number;
}

/** The first `chars` code points of the normalized query; undefined when the query is not longer. */
export function prefixOf(query: string, chars: number): string | undefined {
  const points = [...comparableText(query)];
  return points.length > chars ? points.slice(0, chars).join('') : undefined;
}

/** 1-based rank of the query among the completions (compared normalized), undefined when absent. */
export function rankAmong(query: string, completions: readonly string[]): number | undefined {
  const wanted = comparableText(query);
  const index = completions.slice(0, SUGGEST_DEPTH).findIndex((word) => comparableText(word) === wanted);
  return index === -1 ? undefined : index + 1;
}

/** The figures for every prefix length, asking `suggest` for each judged query's prefixes. */
export function suggestFiguresOf(
  queries: readonly string[],
  suggest: (prefix: string) => string[],
): SuggestFigures[] {
  return SUGGEST_PREFIX_CHARS.map((prefixChars) => {
    let counted = 0;
    let reciprocal = 0;
    let found = 0;
    for (const query of queries) {
      const prefix = prefixOf(query, prefixChars);
      if (prefix === undefined) continue;
      counted += 1;
      const rank = rankAmong(query, suggest(prefix));
      if (rank === undefined) continue;
      reciprocal += 1 / rank;
      found += 1;
    }
    const share = (value: number) => (counted === 0 ? 0 : value / counted);
    return { prefixChars, queries: counted, mrr: share(reciprocal), top10Share: share(found) };
  });
}
