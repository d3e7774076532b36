/**
 * What a query asks to highlight: each word or quoted phrase it requires (or offers as an OR
 * alternative) as the runs the analyzer cuts it into, then the other forms of its words, the
 * completions of the word being typed and the synonyms they also find
 * (docs/reference/site-search.md, Word forms, Words being typed and Synonyms). Excluded
 * parts are left out: they are what a hit does not contain.
 */
import { normalizeText, runsOf, type TextRun } from '../analyzer.js';
import { MAX_CLAUSES } from '../engine/query-plan.js';
import type { QueryTree } from '../query-tree.js';

export interface QueryTerm {
  /**
   * Distinct per word of the query, shared by its forms and synonyms: a snippet prefers the
   * passage with the most distinct ids.
   */
  id: number;
  /** Normalized runs; several (`node.js`, a phrase) must be found adjacent and in order. */
  runs: readonly TextRun[];
}

export function queryTerms(query: QueryTree): QueryTerm[] {
  const terms: QueryTerm[] = [];
  const idOfKey = new Map<string, number>();
  let nextId = 0;
  /** Adds a term once; returns its id, undefined when it has no runs. */
  const add = (text: string, id?: number): number | undefined => {
    const runs = runsOf(normalizeText(text));
    if (runs.length === 0) return undefined;
    // A separator no run can contain, so `a b` and `ab` stay apart.
    const key = runs.map((run) => run.text).join(' ');
    const known = idOfKey.get(key);
    if (known !== undefined) return known;
    const termId = id ?? nextId++;
    idOfKey.set(key, termId);
    terms.push({ id: termId, runs });
    return termId;
  };
  const idOfPart: (number | undefined)[] = [];
  for (const part of query.parts) {
    // The matcher uses no more parts than this either (query-plan.ts).
    if (part.exclude || terms.length >= MAX_CLAUSES) {
      idOfPart.push(undefined);
      continue;
    }
    idOfPart.push(add(part.text));
  }
  // Another form of a word (`trigger` for `triggers`) is that word, as the search found it.
  for (const expansion of query.forms) {
    const id = idOfPart[expansion.part];
    if (id === undefined) continue;
    for (const form of expansion.forms) add(form.text, id);
  }
  // A completion of the word being typed (`vacuum` for `vacu`) is the word the visitor meant.
  const { completion } = query;
  const completedId = completion === undefined ? undefined : idOfPart[completion.part];
  if (completion !== undefined && completedId !== undefined) {
    for (const word of completion.completions) add(word.text, completedId);
  }
  // A synonym counts as the word it stands for: a snippet prefers passages with more of the
  // query's distinct words, not one with a word and its synonym.
  for (const expansion of query.synonyms) {
    const id = idOfPart[expansion.first] ?? nextId++;
    for (const alternative of expansion.alternatives) add(alternative, id);
  }
  return terms;
}
