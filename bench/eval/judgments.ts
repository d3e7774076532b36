import type { IndexEntry } from './index-entry.js';

/** A query and the pages a book's index says are about it. */
export interface Judgment {
  query: string;
  relevant: ReadonlySet<string>;
}

export interface JudgmentOptions {
  /** At most this many queries, spread evenly over the alphabetically sorted eligible entries. */
  maxQueries: number;
  /** Entries pointing to more pages are too general to judge a top 10 by (`module`, `object`). */
  maxPages: number;
  /** Fewest letters and digits in a query: shorter terms (`j`, `id`) are not what people search. */
  minChars: number;
  /** Further condition on the query text (the Japanese set keeps terms written in Japanese). */
  accept?: (query: string) => boolean;
}

export interface JudgedSet {
  judgments: Judgment[];
  /** Index entries read, and distinct query texts among them that met the conditions. */
  entries: number;
  eligible: number;
  /** Distinct pages judged relevant to at least one sampled query. */
  judgedPages: number;
}

/**
 * Judgments from index entries: each entry's term is a query, the pages it links to are the
 * relevant ones (binary relevance). Entries with the same query text are merged; links to pages
 * outside `corpus`, the content pages (listing pages are never relevant), are dropped. The sample
 * is deterministic.
 */
export function judgmentsOf(
  entries: readonly IndexEntry[],
  corpus: ReadonlySet<string>,
  options: JudgmentOptions,
): JudgedSet {
  const byKey = new Map<string, { query: string; relevant: Set<string> }>();
  for (const entry of entries) {
    const key = entry.term.normalize('NFKC').toLowerCase();
    const merged = byKey.get(key) ?? { query: entry.term, relevant: new Set<string>() };
    for (const page of entry.pages) if (corpus.has(page)) merged.relevant.add(page);
    byKey.set(key, merged);
  }
  const eligible = [...byKey.entries()]
    .filter(([, { query, relevant }]) => {
      const chars = query.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
      return (
        chars >= options.minChars &&
        /\p{L}/u.test(query) &&
        relevant.size >= 1 &&
        relevant.size <= options.maxPages &&
        (options.accept?.(query) ?? true)
      );
    })
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const count = Math.min(options.maxQueries, eligible.length);
  const judgments: Judgment[] = [];
  for (let i = 0; i < count; i += 1) {
    const [, judgment] = eligible[Math.floor((i * eligible.length) / count)]!;
    judgments.push(judgment);
  }
  const judged = new Set(judgments.flatMap(({ relevant }) => [...relevant]));
  return { judgments, entries: entries.length, eligible: eligible.length, judgedPages: judged.size };
}
