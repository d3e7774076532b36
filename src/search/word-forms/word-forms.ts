/**
 * Word forms at query time (docs/reference/site-search.md, Word forms): a query word such as
 * `triggers` also finds the pages that write `trigger`, `triggered` or `triggering`, scored
 * below the form typed. The index keeps words as written; a query looks its word's inflected
 * forms up in the index's term dictionaries, so the index format stays as it is and an index
 * change needs nothing rebuilt.
 */
import { normalizeText } from '../analyzer.js';
import type { QueryPart } from '../query-syntax.js';

/** Another form of a query word that the index holds, with its share of the word's score. */
export interface WordForm {
  text: string;
  weight: number;
}

/** The other forms of query words that one index generation holds. */
export interface WordForms {
  /** Other forms of a lower-case word, most frequent first; none when the index has none. */
  formsOf(word: string): readonly WordForm[];
  /**
   * The index's words that complete a lower-case word being typed, most frequent first; none
   * when the word is complete enough (prefix-completions.ts, docs/reference/site-search.md,
   * Words being typed).
   */
  completionsOf(prefix: string): readonly WordForm[];
}

export const NO_WORD_FORMS: WordForms = { formsOf: () => [], completionsOf: () => [] };

/**
 * Share of the other forms' score next to the form typed, at equal document frequency, for
 * all of a word's forms together: a page with the typed form ranks above one with only other
 * forms, and a page that uses every form of a word (`push`, `pushed`, `pushes`) gains little
 * over the page that defines it. Measured with `npm run eval:search` (docs/search-evaluation.md).
 */
export const FORM_WEIGHT = 0.25;
/**
 * Other forms of one word at most, the most frequent: the plural or the verb forms a site uses
 * for the word; rarer forms add little recall and cost a posting scan each.
 */
export const MAX_FORMS_PER_WORD = 2;
/** Form clauses added to one query at most, so that a long query keeps its cost. */
export const MAX_FORM_CLAUSES = 24;
/**
 * The word a query part stands for when its forms apply, else undefined: a plain required word
 * of letters a-z alone, written in lower case or capitalized. A quoted phrase asks for the text
 * as written; an excluded word leaves out what it says, not its relatives; a word of several
 * runs (`pg_stat_activity`, `os.path`, a URL, `node.js`) or with digits is a name, and so is a
 * word with capitals inside (`shortDescription`, `GUI`): they find only themselves.
 */
export function formWordOf(part: QueryPart): string | undefined {
  if (part.phrase || part.exclude) return undefined;
  const text = part.text.normalize('NFKC');
  if (!/^[A-Za-z][a-z]+$/.test(text)) return undefined;
  return normalizeText(text);
}

/** Query part `part` also finds `forms`. */
export interface FormExpansion {
  part: number;
  forms: readonly WordForm[];
}

/** The forms each part of a query also finds, within MAX_FORM_CLAUSES. */
export function formExpansions(parts: readonly QueryPart[], forms: WordForms): FormExpansion[] {
  if (forms === NO_WORD_FORMS) return [];
  const expansions: FormExpansion[] = [];
  let added = 0;
  parts.forEach((part, index) => {
    const word = formWordOf(part);
    if (word === undefined || added >= MAX_FORM_CLAUSES) return;
    const found = forms.formsOf(word).slice(0, MAX_FORM_CLAUSES - added);
    if (found.length === 0) return;
    added += found.length;
    expansions.push({ part: index, forms: found });
  });
  return expansions;
}
