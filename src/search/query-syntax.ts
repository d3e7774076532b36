/** One part of a query (docs/reference/site-search.md, Query syntax). */
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
