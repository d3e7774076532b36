/**
 * Turning a run's bundle into index documents and applying a run to an index: loaded by `kumo
 * index` and by feeding, not by an idle service. (docs/design/layers.md, Surfaces)
 */
export { BatchIndexer } from './batch-indexer.js';
export { type IndexingBudget, indexingBudgetOf } from './indexing-budget.js';
export { bundleDocuments, BundleReadError } from './bundle-documents.js';
export { documentOfPage, type PageToIndex } from './html-page.js';
export { pageTextOf } from './html-text.js';
export { applyRunToIndex, type RunPageOutcomes } from './run-index-update.js';
