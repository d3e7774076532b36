import { bigramTokens, normalizeText, runsOf, segmentTokens } from './analyzer.js';

/** One part of a query as decisions.md "Site search" writes it. */
export interface QueryPart {
  /** A word (`python`) or the text of a quoted phrase (`"python lists"`). */
  text: string;
  phrase: boolean;
  /** `-word`: documents containing it are left out. */
  exclude: boolean;
  /** `a OR b`: this part is an alternative to the one before it. */
  orPrevious: boolean;
}

/**
 * Splits a query into its parts: words separated by spaces (ANDed), `"a phrase"`, `-word` to
 * exclude, `OR` between two parts. An unclosed quote runs to the end of the query.
 */
export function parseQuery(query: string): QueryPart[] {
  const parts: QueryPart[] = [];
  let orPending = false;
  for (const match of query.matchAll(/(-?)"([^"]*)"?|(\S+)/g)) {
    const [, minus, quoted, bare] = match;
    if (bare === 'OR') {
      // OR joins two required parts; after an exclusion (or at the start) it means nothing.
      const previous = parts[parts.length - 1];
      orPending = previous !== undefined && !previous.exclude;
      continue;
    }
    const exclude = minus === '-' || (bare !== undefined && bare.startsWith('-') && bare.length > 1);
    const text = quoted ?? (exclude ? bare!.slice(1) : bare!);
    parts.push({ text, phrase: quoted !== undefined, exclude, orPrevious: orPending && !exclude });
    orPending = false;
  }
  return parts;
}

/**
 * The FTS5 expression of a query. A word matches as its bigrams (adjacent, a phrase) in the
 * bigram columns or as whole words in the word columns; a lone Japanese character matches the
 * bigrams that start with it. A quoted phrase needs all its tokens adjacent. Undefined when the
 * query asks for nothing (no words, or only exclusions): it then matches no document.
 */
export function matchExpressionOf(query: string): string | undefined {
  const groups: string[][] = [];
  const excluded: string[] = [];
  for (const part of parseQuery(query)) {
    const clause = part.phrase ? phraseClause(part.text) : wordClause(part.text);
    if (clause === undefined) continue;
    if (part.exclude) excluded.push(clause);
    else if (part.orPrevious && groups.length > 0) groups[groups.length - 1]!.push(clause);
    else groups.push([clause]);
  }
  if (groups.length === 0) return undefined;
  const required = groups.map((group) => (group.length === 1 ? group[0]! : `(${group.join(' OR ')})`));
  const expression = required.join(' AND ');
  return excluded.length === 0 ? expression : `(${expression}) NOT (${excluded.join(' OR ')})`;
}

/** A word: each of its runs (`node.js` is `node` and `js`) must match. */
function wordClause(word: string): string | undefined {
  const clauses: string[] = [];
  for (const run of runsOf(normalizeText(word))) {
    const grams = bigramTokens(run.text);
    const lone = run.japanese && [...run.text].length === 1;
    clauses.push(eitherSide(lone ? `${quote(grams[0]!)}*` : quote(grams.join(' ')), segmentTokens(run.text)));
  }
  return clauses.length === 0 ? undefined : clauses.join(' AND ');
}

/** A quoted phrase: all its tokens, adjacent and in order. */
function phraseClause(text: string): string | undefined {
  const grams = bigramTokens(text);
  if (grams.length === 0) return undefined;
  return eitherSide(quote(grams.join(' ')), segmentTokens(text));
}

function eitherSide(bigramPhrase: string, words: string[]): string {
  const sides = [`{title_bigrams body_bigrams}: ${bigramPhrase}`];
  if (words.length > 0) sides.push(`{title_words body_words}: ${quote(words.join(' '))}`);
  return `(${sides.join(' OR ')})`;
}

/** An FTS5 string: double quotes, inner quotes doubled. */
function quote(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}
