/**
 * The best pages for a query as the searcher ranks them (searcher.ts, `top`): the query parsed
 * into its tree with the index's word forms and `synonyms`, as the site search does, without the
 * site search's filters, facets and sort orders. For tests of ranking and indexing.
 */
import {
  planQuery,
  queryLanguageOf,
  queryTreeOf,
  type SearchHit,
  SynonymTable,
  indexWordForms,
} from '../../src/search/ranking.js';
import type { SearchIndex } from '../../src/search/local-index.js';

export function rankedSearch(
  index: Pick<SearchIndex, 'searcher'>,
  query: string,
  limit = 10,
  offset = 0,
  synonyms: SynonymTable = SynonymTable.none,
): { hits: number; docs: SearchHit[] } {
  const searcher = index.searcher();
  const tree = queryTreeOf(query, synonyms, indexWordForms(searcher.snapshot));
  return searcher.top(planQuery(tree), queryLanguageOf(query), limit, offset);
}
