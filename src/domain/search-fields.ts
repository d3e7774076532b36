/**
 * The fields of an indexed document, in the order the engine numbers them: a search service's
 * weights name them (docs/reference/site-search.md, Search services), and the engine tags each position with one.
 * `links` holds the text that points at other pages: the page's navigation and its link entries
 * (docs/reference/site-search.md, Listing pages).
 */
export const FIELDS = ['title', 'headings', 'description', 'body', 'url', 'links'] as const;
export type FieldName = (typeof FIELDS)[number];
