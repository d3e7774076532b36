/**
 * A query as Groonga's select is asked it here: the same words Kumo gets, in Groonga's query
 * syntax, ranked by score with the title weighted as in the load, the top 10 returned without
 * snippets.
 */

export const GROONGA_TABLE = 'Pages';
/** The title counts ten times the body in the score, as Kumo's title outranks its body. */
const MATCH_COLUMNS = 'title*10||body';

/**
 * Each whitespace-separated word of `query` double-quoted, so characters of Groonga's query
 * syntax (`OR`, a leading `-`, `(`, `:`, `*`) in a term such as `pg_stat_*` or `-D` are
 * text, with `"` and `\` escaped by a backslash inside the quotes; the words are ANDed (the
 * syntax's default), as Kumo ANDs a query's words. Undefined when no word is left.
 */
export function groongaQueryOf(query: string): string | undefined {
  const words = query.split(/\s+/).filter((word) => word !== '');
  if (words.length === 0) return undefined;
  return words.map((word) => `"${word.replace(/[\\"]/g, '\\$&')}"`).join(' ');
}

/**
 * The select of one query on Groonga's HTTP server. `sort_keys=-_score` ranks the matches (a
 * select without it lists them in record order), and `cache=no` keeps Groonga's query cache out
 * of it: the benchmark cycles through a fixed set of queries, which a cache would answer from
 * memory, while Kumo computes every answer.
 */
export function groongaSelectPath(query: string): string {
  const parameters = new URLSearchParams({
    table: GROONGA_TABLE,
    match_columns: MATCH_COLUMNS,
    query: groongaQueryOf(query) ?? '',
    sort_keys: '-_score',
    limit: '10',
    output_columns: '_key,title,_score',
    cache: 'no',
  });
  return `/d/select?${parameters.toString().replace(/\+/g, '%20')}`;
}

/** The number of matches in a select answer, or an Error with Groonga's message. */
export function groongaHitsOf(answer: unknown): number | Error {
  const [header, body] = answer as [[number, number, number, string?], [[[number]]]?];
  if (!Array.isArray(header) || header[0] !== 0)
    return new Error(`groonga answered ${JSON.stringify(header)}`);
  const hits = body?.[0]?.[0]?.[0];
  return typeof hits === 'number'
    ? hits
    : new Error(`unexpected select answer ${JSON.stringify(answer).slice(0, 200)}`);
}
