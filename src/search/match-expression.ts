import { bigramTokens, normalizeText, runsOf, segmentTokens } from './analyzer.js';

/**
 * The FTS5 expression of a query: every word must match, either as its bigrams (adjacent, a
 * phrase) in the bigram columns or as whole words in the word columns. A lone Japanese
 * character matches bigrams that start with it.
 */
export function matchExpressionOf(query: string): string | undefined {
  const clauses: string[] = [];
  for (const word of normalizeText(query).split(/\s+/)) {
    for (const run of runsOf(word)) {
      const grams = bigramTokens(run.text);
      const bigramSide =
        run.japanese && grams.length === 1 && [...run.text].length === 1
          ? `${quote(grams[0]!)}*`
          : quote(grams.join(' '));
      const words = segmentTokens(run.text);
      const wordSide = words.length > 0 ? quote(words.join(' ')) : undefined;
      const sides = [`{title_bigrams body_bigrams}: ${bigramSide}`];
      if (wordSide !== undefined) sides.push(`{title_words body_words}: ${wordSide}`);
      clauses.push(`(${sides.join(' OR ')})`);
    }
  }
  return clauses.length === 0 ? undefined : clauses.join(' AND ');
}

/** An FTS5 string: double quotes, inner quotes doubled. */
function quote(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}
