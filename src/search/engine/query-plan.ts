import { analyzeText, normalizeText, runsOf, type TextRun } from '../analyzer.js';
import type { QueryTree } from '../query-tree.js';
import { SYNONYM_WEIGHT } from '../synonyms/expand-query.js';
import { formExpansions, type WordForm, type WordForms } from '../word-forms/word-forms.js';

/** One thing a query asks for: a word or a quoted phrase, as index terms. */
export interface Clause {
  /** The text as written in the query. */
  text: string;
  /** Stream terms that must occur adjacent and in order (one term for a plain Latin word). */
  tokens: string[];
  /**
   * A query that is a single Japanese character (猫) matches it anywhere: inside any bigram, or
   * alone. Then `tokens` is empty.
   */
  loneCharacter: string | undefined;
  /** Japanese words of the clause in the word view: the precision signal (京都 is not 東京都). */
  words: string[];
  /**
   * Whether the first or last of several runs is a single Japanese character (`X線`, `3月`),
   * which text may write inside a longer run (`X線検査`): see edge-phrase.ts.
   */
  openEdges: { first: boolean; last: boolean };
  /**
   * Share of the clause's score in a document's: 1 for what the visitor typed, less for a
   * synonym, another form of the word or a completion of the word being typed (so the word
   * typed ranks above pages found only through a synonym, another form or a completion), 0 where a synonym of several query words only
   * completes the other words' groups (see planQuery).
   */
  weight: number;
  /**
   * A quoted phrase of several words: the clauses its words make unquoted, with their other
   * forms (weight below 1) as the words unquoted find them. The phrase decides which documents
   * match, as written; its words score them, as they would unquoted, so quoting a phrase only
   * removes pages and never reorders the rest. Empty for a word.
   */
  parts: Clause[];
  /**
   * For another form of a word (docs/reference/site-search.md, Word forms) or a completion of the
   * word being typed (Words being typed), the clause of the word as typed (for a completion
   * after the commonest, the completion before it), in the same group or the same `parts`: the form finds the documents without the
   * typed word and scores only those, so a page holding the form typed scores as it would without
   * word forms, and pages using every form gather nothing more.
   */
  formOf?: Clause;
}

/** Parts of a query taken into account; the API accepts queries of up to 1,000 characters. */
export const MAX_CLAUSES = 32;

/** A query as the matcher runs it: every group must match (AND), any clause of a group (OR). */
export interface QueryPlan {
  required: Clause[][];
  excluded: Clause[];
}

/**
 * Plans a query (docs/reference/site-search.md, Query syntax): words ANDed, "phrase", -exclude, OR.
 * A word made of several runs (`node.js`, `e-mail`, `Python入門`) must match them adjacent, like a
 * phrase. Parts with no letters or digits drop out; a plan without required groups matches nothing.
 * With synonyms (docs/reference/site-search.md, Synonyms), a word equal to a member becomes an
 * OR of it and its alternatives; words `a b` equal to a member `s` become (a OR s) AND (b OR s),
 * which is (a AND b) OR s, with `s` scored in the first group only. With word forms
 * (docs/reference/site-search.md, Word forms), a plain word also finds its other forms in the
 * index (`triggers`: `trigger`), at their lower weights, and the last word, when the query ends
 * mid-word, the index's commonest words it starts (`vacu`: `vacuum`; Words being typed). The
 * synonyms and forms are those the tree was expanded with (query-tree.ts).
 */
export function planQuery(query: QueryTree): QueryPlan {
  const required: Clause[][] = [];
  const excluded: Clause[] = [];
  const seen = new Map<string, Clause[] | undefined>();
  const { parts } = query;
  /** The group each part joined (a repeated part: the group of its first occurrence). */
  const groupOfPart: (Clause[] | undefined)[] = [];
  /** The clause each part made (undefined for a repeated or excluded part). */
  const clauseOfPart: (Clause | undefined)[] = [];
  for (const part of parts) {
    // A part repeated adds nothing; parts past MAX_CLAUSES are ignored, so that a long query
    // cannot make one search cost hundreds of matches.
    const key = `${part.exclude ? '-' : part.orPrevious ? '|' : '+'}${normalizeText(part.text)}`;
    if (seen.has(key) || seen.size >= MAX_CLAUSES) {
      groupOfPart.push(seen.get(key));
      clauseOfPart.push(undefined);
      continue;
    }
    const clause = part.phrase ? phraseClauseOf(part.text, query.wordForms) : clauseOf(part.text);
    let group: Clause[] | undefined;
    if (clause === undefined) group = undefined;
    else if (part.exclude) excluded.push(clause);
    else if (part.orPrevious && required.length > 0) {
      group = required[required.length - 1]!;
      group.push(clause);
    } else {
      group = [clause];
      required.push(group);
    }
    seen.set(key, group);
    groupOfPart.push(group);
    clauseOfPart.push(part.exclude ? undefined : clause);
  }
  const expansions = query.forms.map(({ part, forms: found }) => ({ part, found, chained: false }));
  if (query.completion !== undefined)
    expansions.push({ part: query.completion.part, found: query.completion.completions, chained: true });
  for (const { part, found, chained } of expansions) {
    const group = groupOfPart[part];
    const typed = clauseOfPart[part];
    if (group !== undefined && typed !== undefined) addAlternatives(group, typed, found, chained);
  }
  for (const expansion of query.synonyms) {
    const groups = [...new Set(groupOfPart.slice(expansion.first, expansion.first + expansion.count))].filter(
      (group): group is Clause[] => group !== undefined,
    );
    for (const alternative of expansion.alternatives) {
      const clause = clauseOf(alternative);
      if (clause === undefined) continue;
      groups.forEach((group, index) => group.push({ ...clause, weight: index === 0 ? SYNONYM_WEIGHT : 0 }));
    }
  }
  return { required, excluded };
}

/**
 * Adds other forms or completions of the typed word's clause to its group, at their weights.
 * `chained` (completions, commonest first): each stands for the one before it, so a page is
 * scored by the commonest completion it holds alone, as by the whole word the visitor meant,
 * and a page holding `replication`, `replicated` and `replicating` gathers nothing more.
 */
function addAlternatives(group: Clause[], typed: Clause, found: readonly WordForm[], chained: boolean): void {
  let standsFor = typed;
  for (const form of found) {
    // `trigger OR triggers` holds the form already, at the weight the visitor gave it.
    if (group.some((clause) => clause.tokens.length === 1 && clause.tokens[0] === form.text)) continue;
    const clause = { ...clauseOf(form.text)!, weight: form.weight, formOf: standsFor };
    group.push(clause);
    if (chained) standsFor = clause;
  }
}

/**
 * A quoted phrase: matched as one clause, scored by the clauses of its words (see Clause.parts).
 * The score of the phrase's own occurrences would count only where the words are adjacent, and
 * so weigh a heading that says "Foreign Keys" less than a body that says "foreign key" (docs/
 * architecture.md, Search engine).
 */
function phraseClauseOf(text: string, forms: WordForms): Clause | undefined {
  const clause = clauseOf(text);
  if (clause === undefined) return undefined;
  const words = text.split(/\s+/);
  const clausesOfWords = words.map((word) => clauseOf(word));
  const parts = clausesOfWords.filter((part): part is Clause => part !== undefined);
  if (parts.length <= 1) return clause;
  const wordParts = words.map((word) => ({ text: word, phrase: false, exclude: false, orPrevious: false }));
  for (const { part, forms: found } of formExpansions(wordParts, forms)) {
    const typed = clausesOfWords[part];
    if (typed === undefined) continue;
    for (const form of found) parts.push({ ...clauseOf(form.text)!, weight: form.weight, formOf: typed });
  }
  return { ...clause, parts };
}

export function clauseOf(text: string): Clause | undefined {
  const runs = runsOf(normalizeText(text));
  if (runs.length === 0) return undefined;
  const only = runs[0]!;
  const isLoneCharacter = (run: TextRun | undefined) =>
    run !== undefined && run.japanese && [...run.text].length === 1;
  if (runs.length === 1 && isLoneCharacter(only)) {
    return {
      text,
      tokens: [],
      loneCharacter: only.text,
      words: [],
      openEdges: { first: false, last: false },
      weight: 1,
      parts: [],
    };
  }
  const analyzed = analyzeText(text);
  const openEdges = {
    first: runs.length > 1 && isLoneCharacter(runs[0]),
    last: runs.length > 1 && isLoneCharacter(runs[runs.length - 1]),
  };
  return {
    text,
    tokens: analyzed.stream,
    loneCharacter: undefined,
    words: analyzed.words,
    openEdges,
    weight: 1,
    parts: [],
  };
}
