/**
 * Search as the service runs it: the search services, their feeder and index writers, and the
 * request and result types of the site search. The engine loads on a service's first search
 * (docs/design/search-engine.md). (docs/design/layers.md, Surfaces)
 */
export { contentSelectorsOf } from './content-selectors.js';
export type { Doctype, IndexedDocument } from './indexed-document.js';
export { GenerationCache } from './serving/generation-cache.js';
export { type SearchFeed, SearchFeeder } from './serving/search-feeder.js';
export { indexingBudgetOf, type IndexingBudget } from './indexing-budget.js';
export { SearchIndexWriter } from './serving/search-index-writer.js';
export {
  type OpenSearchService,
  SearchIndexUnavailableError,
  SearchServices,
} from './serving/search-services.js';
export type { SiteSearchRequest, SiteSearchResult } from './site/search-response.js';
