/**
 * The best pages for a query as the searcher ranks them (searcher.ts, `top`): the query parsed
 * into its tree with the index's word forms and `synonyms`, as the site search does, without the
 * site search's filters, facets and sort orders. For tests of ranking and indexing.
 */
import { planQuery } from '../../src/search/engine/query-plan.js';
import { queryLanguageOf } from '../../src/search/page-language.js';
import { queryTreeOf } from '../../src/search/query-tree.js';
import type { SearchIndex } from '../../src/search/search-index.js';
import type { SearchHit } from '../../src/search/search-index-types.js';
import { SynonymTable } from '../../src/search/synonyms/synonym-table.js';
import { indexWordForms } from '../../src/search/word-forms/index-word-forms.js';

export function rankedSearch(
  index: SearchIndex,
  query: string,
  limit = 10,
  offset = 0,
  synonyms: SynonymTable = SynonymTable.none,
): { hits: number; docs: SearchHit[] } {
  const searcher = index.searcher();
  const tree = queryTreeOf(query, synonyms, indexWordForms(searcher.snapshot));
  return searcher.top(planQuery(tree), queryLanguageOf(query), limit, offset);
}
