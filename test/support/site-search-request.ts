/** A site search request for the first page of 10 hits by score, as a visitor's search sends it. */
import type { SiteSearchRequest } from '../../src/search/index.js';

export function firstPageRequest(q: string, changes: Partial<SiteSearchRequest> = {}): SiteSearchRequest {
  return {
    q,
    pageNumber: 1,
    numberPerPage: 10,
    sortKeys: [{ field: 'score', order: 'desc' }],
    category: '',
    drilldown: [],
    doctype: ['all'],
    ...changes,
  };
}
