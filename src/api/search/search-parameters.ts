import { QueryReader } from './query-reader.js';
import type { InputEncoding } from './raw-query.js';
import { type SortKey, readSortBy } from './sort-by.js';
import { type DoctypeValue, readDoctype, readDrilldown } from './search-filters.js';

export type { InputEncoding } from './raw-query.js';
export type { SortField, SortKey } from './sort-by.js';
export type { DoctypeValue } from './search-filters.js';

/**
 * The query parameters of the site search endpoints (docs/reference/site-search.md, Common
 * parameters, Search, Suggest and Related keywords), read from the raw request URL because
 * `input_encoding` applies to the percent-encoded bytes. Each parser throws
 * ApiError('invalid_input') listing every problem.
 */

/** Pages past this are refused, to bound the work of deep paging. */
export const MAX_PAGE_NUMBER = 10_000;

export interface SearchParameters {
  q: string;
  input_encoding: InputEncoding;
  page_number: number;
  number_per_page: number;
  /** The sort keys as `field order` (`['score desc']`), for the echo in the answer. */
  sort_by: string[];
  sortKeys: SortKey[];
  /** '' when absent. */
  category: string;
  /** Each a tab-joined label path; [] when absent. */
  drilldown: string[];
  /** ['all'] when absent. */
  doctype: DoctypeValue[];
  callback: string | undefined;
}

export function parseSearchParameters(rawUrl: string): SearchParameters {
  const reader = new QueryReader(rawUrl);
  const result: SearchParameters = {
    q: reader.text('q'),
    input_encoding: reader.encoding,
    page_number: reader.integer('page_number', { min: 1, max: MAX_PAGE_NUMBER, fallback: 1 }),
    number_per_page: reader.integer('number_per_page', { min: 0, max: 100, fallback: 10 }),
    ...readSortBy(reader),
    category: reader.text('category'),
    drilldown: readDrilldown(reader),
    doctype: readDoctype(reader),
    callback: reader.callback(),
  };
  reader.finish();
  return result;
}

export interface SuggestParameters {
  q: string;
  input_encoding: InputEncoding;
  number_per_suggestion: number;
  callback: string | undefined;
}

/** number_per_suggestion is 1..100: asking for no suggestions is a mistake rather than a query. */
export function parseSuggestParameters(rawUrl: string): SuggestParameters {
  const reader = new QueryReader(rawUrl);
  const result: SuggestParameters = {
    q: reader.text('q'),
    input_encoding: reader.encoding,
    number_per_suggestion: reader.integer('number_per_suggestion', { min: 1, max: 100, fallback: 10 }),
    callback: reader.callback(),
  };
  reader.finish();
  return result;
}

export interface RelatedKeywordsParameters {
  q: string;
  prefix: string;
  input_encoding: InputEncoding;
  callback: string | undefined;
}

export function parseRelatedKeywordsParameters(rawUrl: string): RelatedKeywordsParameters {
  const reader = new QueryReader(rawUrl);
  const result: RelatedKeywordsParameters = {
    q: reader.text('q'),
    prefix: reader.text('prefix'),
    input_encoding: reader.encoding,
    callback: reader.callback(),
  };
  reader.finish();
  return result;
}

export interface ClickParameters {
  url: string;
  q: string;
  input_encoding: InputEncoding;
}

/** Longest click target accepted; indexed URLs are far shorter. */
const MAX_CLICK_URL_LENGTH = 8192;

/**
 * `url` is required and must be an absolute http(s) URL; whether it is in the index (else 404, so
 * the redirect is never open) is for the route to check.
 */
export function parseClickParameters(rawUrl: string): ClickParameters {
  const reader = new QueryReader(rawUrl);
  const url = reader.text('url', MAX_CLICK_URL_LENGTH);
  if (url === '') reader.fail('url', 'is required');
  else if (!isHttpUrl(url)) reader.fail('url', 'must be an absolute http or https URL');
  const result: ClickParameters = { url, q: reader.text('q'), input_encoding: reader.encoding };
  reader.finish();
  return result;
}

function isHttpUrl(value: string): boolean {
  try {
    const protocol = new URL(value).protocol;
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
