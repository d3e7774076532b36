/** Document types of site search (`doctype`; docs/api.md, Site search); `all` is only a filter value. */
export const DOCTYPES = ['html', 'pdf', 'doc', 'xls', 'ppt'] as const;
export type Doctype = (typeof DOCTYPES)[number];
