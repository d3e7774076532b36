/** Document types of the site search API (`doctype`; docs/reference/site-search.md, Search); `all` is only a filter value. */
export const DOCTYPES = ['html', 'pdf', 'doc', 'xls', 'ppt'] as const;
export type Doctype = (typeof DOCTYPES)[number];
