/**
 * The bodies of the site search API as TypeScript types, derived from the TypeBox schemas the
 * server declares its answers with (docs/reference/widget.md, Typed client): a change of the
 * server's schema changes these types, and the published declaration file is generated from the
 * same schemas.
 */
import type { Static } from '@sinclair/typebox';
import type {
  DrillDownInfoSchema,
  HighlightPartSchema,
  RelatedKeywordsResponseSchema,
  SearchResponseSchema,
  SuggestResponseSchema,
} from '../api/schemas/site-search-schemas.js';

export type SearchResponse = Static<typeof SearchResponseSchema>;
export type SuggestResponse = Static<typeof SuggestResponseSchema>;
export type RelatedKeywordsResponse = Static<typeof RelatedKeywordsResponseSchema>;
export type HighlightPart = Static<typeof HighlightPartSchema>;
export type FacetDrillDown = Static<typeof DrillDownInfoSchema>;
export type OrganicDoc = SearchResponse['organic']['docs'][number];
export type FacetDrillDownRoot = SearchResponse['facet_drilldown_roots'][number];

/** Sort fields of `sort_by`; each is written `field order` with `asc` or `desc`. */
export type SortField = 'score' | 'last_modified' | 'title' | 'click';
/** Document types of the `doctype` filter; `all` is the default. */
export type DoctypeFilter = 'all' | 'html' | 'pdf' | 'doc' | 'xls' | 'ppt';
