/**
 * What a query asks to highlight: each word or quoted phrase it requires (or offers as an OR
 * alternative) as the runs the analyzer cuts it into. Excluded parts are left out: they are what
 * a hit does not contain.
 */
import { normalizeText, runsOf, type TextRun } from '../analyzer.js';
import { MAX_CLAUSES } from '../engine/query-plan.js';
import { parseQuery } from '../query-syntax.js';

export interface QueryTerm {
  /** Distinct per term: a snippet prefers the passage with the most distinct terms. */
  id: number;
  /** Normalized runs; several (`node.js`, a phrase) must be found adjacent and in order. */
  runs: readonly TextRun[];
}

export function queryTerms(query: string): QueryTerm[] {
  const terms: QueryTerm[] = [];
  const seen = new Set<string>();
  for (const part of parseQuery(query)) {
    if (part.exclude) continue;
    const runs = runsOf(normalizeText(part.text));
    if (runs.length === 0) continue;
    // A separator no run can contain, so `a b` and `ab` stay apart.
    const key = runs.map((run) => run.text).join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    terms.push({ id: terms.length, runs });
    // The matcher uses no more parts than this either (query-plan.ts).
    if (terms.length >= MAX_CLAUSES) break;
  }
  return terms;
}
