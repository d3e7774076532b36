import { jsonpCall } from './jsonp.js';
import { kindOfStatus, SiteSearchError, type SiteSearchFieldError } from './site-search-error.js';
import type {
  DoctypeFilter,
  RelatedKeywordsResponse,
  SearchResponse,
  SuggestResponse,
} from './site-search-types.js';

/** Which search service: ids, or the widget's `contract/group/service` form (`"1/1/1"`). */
export type ServiceRef = { contractId: number; servicegroupId: number; serviceId: number } | string;

/**
 * `cors`: fetch with CORS. `jsonp`: script elements. `auto` (default): fetch, and JSONP from the
 * first call that fetch cannot make (docs/reference/widget.md, Transports).
 */
export type Transport = 'auto' | 'cors' | 'jsonp';

export interface SiteSearchClientOptions {
  /** The site search API base, e.g. `https://search.example.com/api/v1.0/finder_service`. */
  baseUrl: string;
  service: ServiceRef;
  transport?: Transport;
}

export interface SearchQuery {
  q: string;
  /** 1-based; default 1. */
  page?: number;
  /** 0..100; default 10. */
  perPage?: number;
  /** `field order` entries, e.g. `['last_modified desc']`; default score. */
  sortBy?: readonly string[];
  category?: string;
  /** Drill-down paths (labels joined by a tab); several combine with OR. */
  drilldown?: readonly string[];
  doctype?: readonly DoctypeFilter[];
}

export interface CallOptions {
  /** Aborting rejects the call with a SiteSearchError of kind `aborted` and cancels its request. */
  signal?: AbortSignal;
}

/** `"1/2/3"` → ids; anything else throws, naming the expected form. */
export function parseServiceRef(service: ServiceRef): {
  contractId: number;
  servicegroupId: number;
  serviceId: number;
} {
  if (typeof service !== 'string') return service;
  const match = /^\s*(\d{1,15})\/(\d{1,15})\/(\d{1,15})\s*$/.exec(service);
  if (match === null) throw new TypeError(`service "${service}" is not contract/group/service, e.g. "1/1/1"`);
  return { contractId: Number(match[1]), servicegroupId: Number(match[2]), serviceId: Number(match[3]) };
}

/**
 * A small client of the site search API (docs/reference/widget.md, Typed client): search, suggest,
 * related keywords and click reporting, over CORS or JSONP. The widget is built on it; it is also
 * served as an ES module with its declaration file for people writing their own UI.
 */
export class SiteSearchClient {
  readonly #documentsUrl: string;
  #mode: Transport;

  constructor(options: SiteSearchClientOptions) {
    const { contractId, servicegroupId, serviceId } = parseServiceRef(options.service);
    this.#documentsUrl = `${options.baseUrl.replace(/\/+$/, '')}/documents/${contractId}/${servicegroupId}/${serviceId}`;
    this.#mode = options.transport ?? 'auto';
  }

  /** The transport in use: `auto` until the first call shows whether fetch works. */
  get transport(): Transport {
    return this.#mode;
  }

  search(query: SearchQuery, options: CallOptions = {}): Promise<SearchResponse> {
    const parameters: [string, string][] = [['q', query.q]];
    if (query.page !== undefined && query.page !== 1) parameters.push(['page_number', String(query.page)]);
    if (query.perPage !== undefined) parameters.push(['number_per_page', String(query.perPage)]);
    if (query.sortBy !== undefined && query.sortBy.length > 0)
      parameters.push(['sort_by', query.sortBy.join(',')]);
    if (query.category) parameters.push(['category', query.category]);
    for (const path of query.drilldown ?? []) parameters.push(['drilldown', path]);
    if (query.doctype !== undefined && query.doctype.length > 0)
      parameters.push(['doctype', query.doctype.join(',')]);
    return this.#call('search', parameters, options.signal) as Promise<SearchResponse>;
  }

  suggest(q: string, options: CallOptions & { count?: number } = {}): Promise<SuggestResponse> {
    const parameters: [string, string][] = [['q', q]];
    if (options.count !== undefined) parameters.push(['number_per_suggestion', String(options.count)]);
    return this.#call('suggest', parameters, options.signal) as Promise<SuggestResponse>;
  }

  relatedKeywords(
    q: string,
    options: CallOptions & { prefix?: string } = {},
  ): Promise<RelatedKeywordsResponse> {
    const parameters: [string, string][] = [['q', q]];
    if (options.prefix) parameters.push(['prefix', options.prefix]);
    return this.#call('related_keywords', parameters, options.signal) as Promise<RelatedKeywordsResponse>;
  }

  /** The click endpoint's URL for a result: opening it records the click and redirects to `url`. */
  clickUrl(url: string, q: string): string {
    return this.#url('click', [
      ['url', url],
      ['q', q],
    ]);
  }

  /**
   * Records that a visitor opened `url` from the results of `q`, without delaying the navigation:
   * a keepalive request that outlives the page, or an image beacon where fetch cannot reach the
   * API. The click endpoint's redirect is not followed.
   */
  reportClick(url: string, q: string): void {
    const target = this.clickUrl(url, q);
    const beacon = () => {
      new Image().src = target;
    };
    if (this.#mode === 'jsonp' || typeof fetch !== 'function') {
      beacon();
      return;
    }
    fetch(target, { keepalive: true, redirect: 'manual', credentials: 'omit' }).catch(beacon);
  }

  #url(endpoint: string, parameters: readonly [string, string][]): string {
    const query = parameters.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');
    return `${this.#documentsUrl}/${endpoint}?${query}`;
  }

  async #call(
    endpoint: string,
    parameters: readonly [string, string][],
    signal?: AbortSignal,
  ): Promise<unknown> {
    const url = this.#url(endpoint, parameters);
    if (this.#mode === 'jsonp') return jsonpCall(url, signal);
    try {
      return await fetchJson(url, signal);
    } catch (error) {
      if (
        this.#mode === 'auto' &&
        error instanceof SiteSearchError &&
        error.kind === 'network' &&
        canUseJsonp()
      ) {
        const payload = await jsonpCall(url, signal);
        // JSONP answered where fetch could not: the page cannot read the API with fetch.
        this.#mode = 'jsonp';
        return payload;
      }
      throw error;
    }
  }
}

function canUseJsonp(): boolean {
  return typeof document !== 'undefined';
}

async function fetchJson(url: string, signal: AbortSignal | undefined): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { signal, credentials: 'omit', headers: { accept: 'application/json' } });
  } catch (error) {
    if (signal?.aborted) throw new SiteSearchError('aborted', 'aborted');
    throw new SiteSearchError(
      'network',
      `the search service could not be reached: ${(error as Error).message}`,
    );
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    if (signal?.aborted) throw new SiteSearchError('aborted', 'aborted');
    if (response.ok)
      throw new SiteSearchError('server', 'the search service answered no JSON', response.status);
    body = undefined;
  }
  if (response.ok) return body;
  const failure = (body ?? {}) as { message?: unknown; errors?: unknown };
  const message = typeof failure.message === 'string' ? failure.message : `HTTP ${response.status}`;
  const fields = Array.isArray(failure.errors) ? (failure.errors as SiteSearchFieldError[]) : [];
  throw new SiteSearchError(kindOfStatus(response.status), message, response.status, fields);
}
