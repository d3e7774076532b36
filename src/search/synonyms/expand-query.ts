import type { QueryPart } from '../query-syntax.js';
import { innerAlternatives } from './inner-members.js';
import { synonymKey } from './synonym-key.js';
import type { SynonymTable } from './synonym-table.js';

/** Query parts `first`..`first + count - 1` equal a synonym member: they also find `alternatives`. */
export interface SynonymExpansion {
  first: number;
  count: number;
  alternatives: readonly string[];
}

/**
 * Share of a synonym's score next to the form the visitor typed: low enough that a page using
 * the typed form ranks above one that only uses a synonym, with equal occurrences.
 */
export const SYNONYM_WEIGHT = 0.5;

/** Alternatives added to one query at most, so that a list cannot make a search cost hundreds of matches. */
export const MAX_SYNONYM_CLAUSES = 32;

/**
 * Where a query's words equal synonym members (docs/reference/site-search.md, Synonyms): each
 * word, or run of consecutive words, whose normalized form is a member, longest run first, left
 * to right. A visitor's quoted phrase and excluded parts are taken as written: quotes ask for
 * that exact text, and excluding the alternatives too would drop pages the visitor did not
 * mean to lose. A run of several words is only formed from plain words not joined by OR. A
 * word equal to no member but holding Japanese members in its unspaced text is expanded with
 * each member replaced in turn.
 */
export function synonymExpansions(parts: readonly QueryPart[], table: SynonymTable): SynonymExpansion[] {
  if (table.empty) return [];
  const expansions: SynonymExpansion[] = [];
  let added = 0;
  const plain = (part: QueryPart | undefined) => part !== undefined && !part.phrase && !part.exclude;
  for (let first = 0; first < parts.length && added < MAX_SYNONYM_CLAUSES;) {
    let found: SynonymExpansion | undefined;
    const longest = Math.min(table.maxWords, parts.length - first);
    for (let count = longest; count >= 1 && found === undefined; count -= 1) {
      const run = parts.slice(first, first + count);
      if (!run.every(plain)) continue;
      // A run of several words must stand alone: OR inside it, or joining it to a neighbour,
      // would make the run an alternative of something else.
      if (count > 1 && (run.some((part) => part.orPrevious) || parts[first + count]?.orPrevious === true))
        continue;
      const alternatives = table.alternativesOf(synonymKey(run.map((part) => part.text).join(' ')));
      if (alternatives !== undefined) found = { first, count, alternatives };
    }
    // A word holding a Japanese member among unspaced text (`仮想ホストの設定`) also finds the
    // word with the member's alternatives in its place (inner-members.ts).
    if (found === undefined && plain(parts[first])) {
      const alternatives = innerAlternatives(parts[first]!.text, table, MAX_SYNONYM_CLAUSES - added);
      if (alternatives.length > 0) found = { first, count: 1, alternatives };
    }
    if (found === undefined) {
      first += 1;
      continue;
    }
    const alternatives = found.alternatives.slice(0, MAX_SYNONYM_CLAUSES - added);
    added += alternatives.length;
    expansions.push({ ...found, alternatives });
    first += found.count;
  }
  return expansions;
}
