import type { HighlightPart } from '../highlight/query-highlighter.js';
import type { Doctype } from '../indexed-document.js';
import type { FacetDrillDownRootInfo } from './drilldown-tree.js';
import type { SortKey } from './hit-order.js';

/** What a site search asks for, parsed and validated (docs/reference/site-search.md, Search). */
export interface SiteSearchRequest {
  q: string;
  pageNumber: number;
  numberPerPage: number;
  sortKeys: readonly SortKey[];
  /** '' for none. */
  category: string;
  /** Drill-down label paths (labels joined by a tab), combined with OR. */
  drilldown: readonly string[];
  /** Empty or containing 'all': every type. */
  doctype: readonly (Doctype | 'all')[];
}

/** HighlightInfo (docs/reference/site-search.md, organic). */
export interface HighlightInfo {
  url_parts: HighlightPart[];
  title_parts: HighlightPart[];
  description_parts: HighlightPart[];
  document_text_parts: HighlightPart[];
}

/** OrganicDoc (docs/reference/site-search.md, organic). */
export interface OrganicDoc {
  ranking: number;
  url: string;
  title: string;
  description: string;
  start_text: string;
  highlight: HighlightInfo;
  content_size: number;
  last_modified: number;
  drilldown: string[];
  doctype: Doctype;
  /**
   * Only on a document shown for pages with the same main text: their URLs (docs/reference/site-search.md,
   * Pages with the same text).
   */
  duplicate_urls?: string[];
}

/**
 * The search answer (docs/reference/site-search.md, Search) without `parameter`, which the API
 * layer writes.
 */
export interface SiteSearchResult {
  organic: { hits: number; range_min: number; range_max: number; docs: OrganicDoc[] };
  category: { items: string[]; selected: string[] };
  facet_drilldown_roots: FacetDrillDownRootInfo[];
  spellcheck: { main_phrase: string };
}
