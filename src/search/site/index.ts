/**
 * The site search over an opened index, with its facet threads and search activity, as `kumo
 * search` and the engine use it. (docs/design/layers.md, Surfaces)
 */
export { FACET_JOB_LIMIT_MS, FacetPool } from './facet-pool.js';
export { SearchActivity } from './search-activity.js';
export { SiteSearch } from './site-search.js';
export { HIT_THREAD_KEEPS } from './hit-page-job.js';
export { defaultHitThreads } from './hit-page-pool.js';
