/**
 * How a query is planned, ranked and highlighted over an index, for what ranks without the site
 * search around it (the benches and ranking tests). (docs/design/layers.md, Surfaces)
 */
export { planQuery } from './engine/query-plan.js';
export { QueryHighlighter } from './highlight/query-highlighter.js';
export { queryLanguageOf } from './page-language.js';
export { queryTreeOf } from './query-tree.js';
export type { SearchHit } from './search-index-types.js';
export { SynonymTable } from './synonyms/synonym-table.js';
export { indexWordForms } from './word-forms/index-word-forms.js';
