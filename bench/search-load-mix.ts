/**
 * The search URLs of load:search: the 14 queries of bench:search (search-queries.ts: English and
 * Japanese words, phrase, OR, exclusion, a typo, a drill-down filter, a date sort) and variants
 * of them that page, sort, narrow on a category or drill down, over the benchmark's search
 * configuration (search-site-map.ts). Each autocannon connection cycles through them in order.
 */
import { type BenchQuery, QUERY_MIX, searchPath } from './search-queries.js';

export interface LoadRequest {
  kind: string;
  path: string;
}

/** The API path of `query` with further parameters of the search API. */
function withParameters(query: BenchQuery, extra: Record<string, string>): string {
  return `${searchPath(query)}&${new URLSearchParams(extra).toString().replace(/\+/g, '%20')}`;
}

const VARIANTS: readonly LoadRequest[] = [
  { kind: 'page 3', path: withParameters({ kind: '', q: 'service' }, { page_number: '3' }) },
  {
    kind: 'Japanese, page 2 of 20',
    path: withParameters({ kind: '', q: '京都' }, { page_number: '2', number_per_page: '20' }),
  },
  {
    kind: 'OR, 50 per page',
    path: withParameters({ kind: '', q: 'weather OR finance' }, { number_per_page: '50' }),
  },
  {
    kind: 'Japanese, newest first',
    path: searchPath({ kind: '', q: '検索エンジン', sortByLastModified: true }),
  },
  {
    kind: 'oldest first, page 2',
    path: withParameters(
      { kind: '', q: 'search engine' },
      { sort_by: 'last_modified asc', page_number: '2' },
    ),
  },
  { kind: 'by title', path: withParameters({ kind: '', q: 'network' }, { sort_by: 'title asc' }) },
  { kind: 'category FAQ', path: withParameters({ kind: '', q: 'information' }, { category: 'FAQ' }) },
  {
    kind: 'Japanese, category Documentation',
    path: withParameters({ kind: '', q: '天気' }, { category: 'Documentation' }),
  },
  {
    kind: 'category News, page 2',
    path: withParameters({ kind: '', q: 'support' }, { category: 'News', page_number: '2' }),
  },
  { kind: 'Japanese, drill-down', path: searchPath({ kind: '', q: '東京都', drilldown: 'docs\tguide' }) },
  {
    kind: 'drill-down 3 levels, newest first',
    path: searchPath({
      kind: '',
      q: 'product',
      drilldown: 'products\tcloud\toverview',
      sortByLastModified: true,
    }),
  },
];

export const LOAD_MIX: readonly LoadRequest[] = [
  ...QUERY_MIX.map((query) => ({ kind: query.kind, path: searchPath(query) })),
  ...VARIANTS,
];
