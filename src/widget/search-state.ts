/**
 * What a search shows, and how it lives in the page's URL (docs/reference/widget.md, URL state):
 * `<prefix>q`, `page`, `category`, `drilldown` (repeated), `sort`, `doctype`, so a results page can
 * be shared and back/forward restore it.
 */
import type { SearchQuery, DoctypeFilter } from '../client/index.js';

export type SortKey = 'relevance' | 'newest' | 'title' | 'popular';

/** The sort choices and the API's `sort_by` of each (docs/reference/site-search.md, Search). */
export const SORTS: Record<SortKey, string | null> = {
  relevance: null,
  newest: 'last_modified desc',
  title: 'title asc',
  popular: 'click desc',
};

const DOCTYPES: readonly DoctypeFilter[] = ['all', 'html', 'pdf', 'doc', 'xls', 'ppt'];

export interface SearchState {
  q: string;
  page: number;
  category: string;
  drilldown: string[];
  sort: SortKey;
  doctype: DoctypeFilter[];
}

export const EMPTY_STATE: SearchState = {
  q: '',
  page: 1,
  category: '',
  drilldown: [],
  sort: 'relevance',
  doctype: [],
};

export function toQuery(state: SearchState, perPage: number): SearchQuery {
  const sortBy = SORTS[state.sort];
  return {
    q: state.q,
    page: state.page,
    perPage,
    sortBy: sortBy === null ? undefined : [sortBy],
    category: state.category || undefined,
    drilldown: state.drilldown,
    doctype: state.doctype,
  };
}

/** The state a URL's query string holds under `prefix`; missing or bad values are the defaults. */
export function readState(search: string, prefix: string): SearchState {
  const parameters = new URLSearchParams(search);
  const page = Number(parameters.get(`${prefix}page`) ?? '1');
  const sort = parameters.get(`${prefix}sort`) ?? '';
  return {
    q: (parameters.get(`${prefix}q`) ?? '').trim(),
    page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1,
    category: parameters.get(`${prefix}category`) ?? '',
    drilldown: parameters.getAll(`${prefix}drilldown`).filter((path) => path !== ''),
    sort: sort in SORTS ? (sort as SortKey) : 'relevance',
    doctype: parameters
      .getAll(`${prefix}doctype`)
      .flatMap((value) => value.split(','))
      .filter((value): value is DoctypeFilter => (DOCTYPES as readonly string[]).includes(value)),
  };
}

/** `href` with the state written under `prefix`, the page's other parameters kept. */
export function writeState(href: string, prefix: string, state: SearchState): string {
  const url = new URL(href);
  const parameters = url.searchParams;
  for (const name of ['q', 'page', 'category', 'drilldown', 'sort', 'doctype'])
    parameters.delete(prefix + name);
  if (state.q !== '') {
    parameters.set(`${prefix}q`, state.q);
    if (state.page > 1) parameters.set(`${prefix}page`, String(state.page));
    if (state.category !== '') parameters.set(`${prefix}category`, state.category);
    for (const path of state.drilldown) parameters.append(`${prefix}drilldown`, path);
    if (state.sort !== 'relevance') parameters.set(`${prefix}sort`, state.sort);
    for (const type of state.doctype) parameters.append(`${prefix}doctype`, type);
  }
  url.search = parameters.toString();
  return url.href;
}

export function sameState(a: SearchState, b: SearchState): boolean {
  return (
    a.q === b.q &&
    a.page === b.page &&
    a.category === b.category &&
    a.sort === b.sort &&
    a.drilldown.join('\n') === b.drilldown.join('\n') &&
    a.doctype.join() === b.doctype.join()
  );
}
