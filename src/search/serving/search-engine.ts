/**
 * The parts of the search engine SearchServices runs, gathered so that it imports them with the
 * first service it opens rather than at start: the engine's modules and the tables they build are
 * several MB that a process which has not searched yet does not need (docs/operations.md, Memory).
 */
export { markPublishedGeneration, publishedGenerationOf, SearchIndex } from '../search-index.js';
export { reanalysisReporter } from '../reanalysis-upgrade.js';
export { MAX_TRACKED_QUERIES, SearchActivity } from '../site/search-activity.js';
export { SiteSearch } from '../site/site-search.js';
