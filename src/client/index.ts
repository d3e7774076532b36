/**
 * The typed client of the site search API, as published at `/widget/v1/kumo-search-client.js`
 * with its declaration file (docs/reference/widget.md, Typed client).
 */
export {
  SiteSearchClient,
  parseServiceRef,
  type CallOptions,
  type SearchQuery,
  type ServiceRef,
  type SiteSearchClientOptions,
  type Transport,
} from './site-search-client.js';
export { SiteSearchError, type SiteSearchErrorKind, type SiteSearchFieldError } from './site-search-error.js';
export type * from './site-search-types.js';
