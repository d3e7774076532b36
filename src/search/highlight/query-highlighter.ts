/**
 * Highlights of a search hit: the parts of its title, description, URL and body snippet that
 * match the query, cut from the text as written though matched on normalized text.
 */
import { bestCluster } from './best-cluster.js';
import { TermMatcher } from './find-matches.js';
import { partsOf, type HighlightPart, type TextRange } from './highlight-part.js';
import { normalizeWithOffsets } from './normalized-text.js';
import { queryTerms, type QueryTerm } from './query-terms.js';
import type { QueryTree } from '../query-tree.js';
import { passageSpan, snippetWindow } from './snippet-window.js';

export type { HighlightPart } from './highlight-part.js';

export interface Snippet {
  parts: HighlightPart[];
  /** Text before the snippet was left out (the caller shows '…'). */
  truncatedStart: boolean;
  /** Text after the snippet was left out. */
  truncatedEnd: boolean;
}

const DEFAULT_SNIPPET_CHARS = 160;
const NOT_SPACE = /\S/;

/** Compiled once per query, reused for every document of the page. */
export class QueryHighlighter {
  /** Whether the query has nothing to highlight (no terms, or only exclusions). */
  readonly empty: boolean;
  private readonly matcher: TermMatcher;

  /** `terms`: as queryTerms gives them; plain data, so a page's hits can be cut in another thread. */
  constructor(readonly terms: readonly QueryTerm[]) {
    this.empty = terms.length === 0;
    this.matcher = new TermMatcher(terms);
  }

  /**
   * The terms of the query tree, with the other forms of its words, the completions of the word
   * being typed and its synonyms: their occurrences are highlighted too, as they are what a hit
   * may contain instead.
   */
  static of(query: QueryTree): QueryHighlighter {
    return new QueryHighlighter(queryTerms(query));
  }

  /** Parts for the whole text (title, description, url). Texts concatenate to `text` exactly. */
  parts(text: string): HighlightPart[] {
    if (text === '') return [];
    if (this.empty) return [{ is_highlighted: false, text }];
    return partsOf(text, this.rangesIn(text));
  }

  /**
   * The body snippet: at most `maxChars` code points around the passage with the most distinct
   * query words (then the most matches, then the earliest), or the start of the text when
   * nothing matches.
   */
  snippet(text: string, maxChars = DEFAULT_SNIPPET_CHARS): Snippet {
    if (!Number.isInteger(maxChars) || maxChars < 1)
      throw new RangeError(`maxChars must be a positive integer`);
    const ranges = this.empty ? [] : this.rangesIn(text);
    const cluster = bestCluster(ranges, passageSpan(maxChars));
    const window = snippetWindow(text, cluster, maxChars);
    return {
      parts: partsOf(text, ranges, window.start, window.end),
      truncatedStart: NOT_SPACE.test(text.slice(0, window.start)),
      truncatedEnd: NOT_SPACE.test(text.slice(window.end)),
    };
  }

  /** Matches as ranges of the original text, by start, each with its term. */
  private rangesIn(text: string): (TextRange & { term: number })[] {
    const normalized = normalizeWithOffsets(text);
    return this.matcher.find(normalized.text).map((match) => ({
      start: normalized.originalStart(match.start),
      end: normalized.originalEnd(match.end),
      term: match.term,
    }));
  }
}
