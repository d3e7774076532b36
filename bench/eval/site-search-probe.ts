import { FacetPool, SearchActivity, SiteSearch } from '../../src/search/site/index.js';
import type { SearchIndex } from '../../src/search/local-index.js';
import type { SearchServiceConfig } from '../../src/domain/schemas.js';
import { systemClock } from '../../src/util/index.js';
import { DEPTH } from './metrics.js';
import type { ShownResult } from './snippet-quality.js';
import { SUGGEST_DEPTH } from './suggest-quality.js';

const ELLIPSIS = '…';

/**
 * The engine's index as the site search API answers on it (src/search/site/site-search.ts): the
 * results a visitor sees for a query, with their snippets, and the completions of what they type.
 * Suggest has an activity of its own, so the searches asked here never become "past queries" it
 * would complete to: it answers as for a new site without a query log.
 */
export class SiteSearchProbe {
  private readonly pool = new FacetPool();
  private readonly searching: SiteSearch;
  private readonly suggesting: SiteSearch;

  constructor(index: SearchIndex, config: SearchServiceConfig = {}) {
    this.searching = new SiteSearch(index, config, new SearchActivity(index.store, systemClock), {
      facetPool: this.pool,
    });
    this.suggesting = new SiteSearch(index, config, new SearchActivity(index.store, systemClock), {
      facetPool: this.pool,
    });
  }

  /**
   * The first page of results (sort by score), as shown: one result for pages with the same main
   * text (its `duplicate_urls` are the others), snippet text and description.
   */
  async shown(query: string): Promise<ShownResult[]> {
    const answer = await this.searching.search({
      q: query,
      pageNumber: 1,
      numberPerPage: DEPTH,
      sortKeys: [{ field: 'score', order: 'desc' }],
      category: '',
      drilldown: [],
      doctype: ['all'],
    });
    return answer.organic.docs.map((doc) => ({
      url: doc.url,
      snippet: doc.highlight.document_text_parts
        .filter((part) => part.text !== ELLIPSIS)
        .map((part) => part.text)
        .join(''),
      description: doc.description,
      copies: doc.duplicate_urls ?? [],
    }));
  }

  /** Waits until suggest knows the readings of the index's phrases, as a site at rest does. */
  async suggestionsSettled(): Promise<void> {
    await this.suggesting.suggestionsSettled();
  }

  suggest(prefix: string): string[] {
    return this.suggesting.suggest(prefix, SUGGEST_DEPTH).map((suggestion) => suggestion.word);
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
