/**
 * The fields of an indexed document, in the order the engine numbers them: a search service's
 * weights name them (docs/reference/site-search.md, Search services), and the engine tags each position with one.
 */
export const FIELDS = ['title', 'headings', 'description', 'body', 'url'] as const;
export type FieldName = (typeof FIELDS)[number];
