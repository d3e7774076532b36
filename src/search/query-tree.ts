/**
 * A query as one search reads it (docs/reference/site-search.md, Query syntax): parsed once into
 * its parts (words, phrases, OR, exclusions), with what the index and the service add to them:
 * the other forms of its words, the completions of the word being typed, its synonyms. Matching
 * (engine/query-plan.ts), highlighting (highlight/query-terms.ts), spelling correction
 * (site/spellcheck.ts) and related keywords all read the one tree; a correction is a new tree of
 * corrected parts, never a string parsed again.
 */
import { parseQuery, type QueryPart } from './query-syntax.js';
import { type SynonymExpansion, synonymExpansions } from './synonyms/expand-query.js';
import { SynonymTable } from './synonyms/synonym-table.js';
import { type WordBeingTyped, wordBeingTyped } from './word-forms/prefix-completions.js';
import {
  type FormExpansion,
  formExpansions,
  NO_WORD_FORMS,
  type WordForm,
  type WordForms,
} from './word-forms/word-forms.js';

export interface QueryTree {
  /** The query as sent, or for a correction its parts written as a query. */
  readonly text: string;
  readonly parts: readonly QueryPart[];
  /** The last part, when it is a word still being typed (no space after it). */
  readonly typed: WordBeingTyped | undefined;
  /** The other forms of plain words that the index holds (`trigger` for `triggers`). */
  readonly forms: readonly FormExpansion[];
  /** The index's commonest words the word being typed starts (`vacuum` for `vacu`), commonest first. */
  readonly completion: { part: number; completions: readonly WordForm[] } | undefined;
  /** The service's synonyms of single parts or runs of plain parts. */
  readonly synonyms: readonly SynonymExpansion[];
  /** What the expansions came from: a quoted phrase's words find their forms in it too, and a correction is expanded again with both. */
  readonly wordForms: WordForms;
  readonly synonymTable: SynonymTable;
}

/** Parses `text` and expands its words with the index's forms and the service's synonyms. */
export function queryTreeOf(
  text: string,
  synonyms: SynonymTable = SynonymTable.none,
  forms: WordForms = NO_WORD_FORMS,
): QueryTree {
  return treeOfParts(text, parseQuery(text), synonyms, forms);
}

/**
 * The tree with its parts replaced (a spelling correction): the parts written as a query are its
 * text, and they are expanded again as the original's were.
 */
export function withParts(tree: QueryTree, parts: readonly QueryPart[]): QueryTree {
  return treeOfParts(queryTextOf(parts), parts, tree.synonymTable, tree.wordForms);
}

/** Parts written as a query that parses back to them: `"phrase"`, `-word`, `OR word`. */
export function queryTextOf(parts: readonly QueryPart[]): string {
  return parts
    .map((part) => {
      const text = part.phrase ? `"${part.text}"` : part.text;
      return `${part.orPrevious ? 'OR ' : ''}${part.exclude ? '-' : ''}${text}`;
    })
    .join(' ');
}

function treeOfParts(
  text: string,
  parts: readonly QueryPart[],
  synonymTable: SynonymTable,
  wordForms: WordForms,
): QueryTree {
  const typed = wordBeingTyped(text, parts);
  const completions = typed === undefined ? [] : wordForms.completionsOf(typed.word);
  return {
    text,
    parts,
    typed,
    forms: formExpansions(parts, wordForms),
    completion:
      typed === undefined || completions.length === 0 ? undefined : { part: typed.part, completions },
    synonyms: synonymExpansions(parts, synonymTable),
    wordForms,
    synonymTable,
  };
}
