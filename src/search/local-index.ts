/**
 * An index file opened in this process, as `kumo index` and `kumo search` open it.
 * (docs/design/layers.md, Surfaces)
 */
export { reanalysisReporter } from './reanalysis-upgrade.js';
export { SearchIndex } from './search-index.js';
export { keepFacets } from './site/kept-facets.js';
export { IndexFileActivityLog } from './storage/index-file-activity-log.js';
