/**
 * Finds where query terms occur in normalized text, following the search engine's matching: a
 * Latin (or other non-Japanese) run only as a whole run, so `form` is not found in `format`; a
 * Japanese run anywhere inside a Japanese run, as bigrams find 京都 in 東京都; the runs of one
 * term adjacent and in order, with nothing but spaces and punctuation between them.
 */
import type { TextRun } from '../analyzer.js';
import { charLengthAt, classAt, classBefore, GAP, JAPANESE, OTHER } from './char-class.js';
import type { QueryTerm } from './query-terms.js';

/** A term found at [start, end) of the text searched. */
export interface TermMatch {
  start: number;
  end: number;
  term: number;
}

/** Terms grouped by their first run: each group costs one indexOf pass over the text. */
interface FirstRunGroup {
  first: string;
  terms: QueryTerm[];
}

export class TermMatcher {
  private readonly groups: FirstRunGroup[] = [];

  constructor(terms: readonly QueryTerm[]) {
    const byFirst = new Map<string, QueryTerm[]>();
    for (const term of terms) {
      const first = term.runs[0]!.text;
      const group = byFirst.get(first);
      if (group === undefined) byFirst.set(first, [term]);
      else group.push(term);
    }
    for (const [first, grouped] of byFirst) this.groups.push({ first, terms: grouped });
  }

  /** Every match in normalized `text`, by start then end; matches may overlap. */
  find(text: string): TermMatch[] {
    const matches: TermMatch[] = [];
    for (const group of this.groups) {
      for (let at = text.indexOf(group.first); at >= 0; at = text.indexOf(group.first, at + 1)) {
        for (const term of group.terms) {
          const end = matchEnd(text, term.runs, at);
          if (end >= 0) matches.push({ start: at, end, term: term.id });
        }
      }
    }
    if (this.groups.length > 1) matches.sort((a, b) => a.start - b.start || a.end - b.end);
    return matches;
  }
}

/** Where the term whose first run starts at `start` ends, or -1 when it does not match there. */
function matchEnd(text: string, runs: readonly TextRun[], start: number): number {
  let position = start;
  for (let index = 0; index < runs.length; index += 1) {
    const run = runs[index]!;
    if (index > 0 && !text.startsWith(run.text, position)) return -1;
    const end = position + run.text.length;
    if (!run.japanese) {
      // A whole run; later runs of a term start where a run starts by construction.
      if (index === 0 && classBefore(text, position) === OTHER) return -1;
      if (classAt(text, end) === OTHER) return -1;
    }
    const next = runs[index + 1];
    if (next === undefined) return end;
    position = end;
    if (run.japanese && classAt(text, position) === JAPANESE) {
      // Japanese runs of a phrase may be written together (検索 エンジン as 検索エンジン), as the
      // engine's word columns find them; a Latin run cannot start inside a Japanese one.
      if (!next.japanese) return -1;
      continue;
    }
    while (position < text.length && classAt(text, position) === GAP) {
      position += charLengthAt(text, position);
    }
  }
  return -1;
}
