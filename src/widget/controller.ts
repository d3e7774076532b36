/**
 * Runs the searches of one widget (docs/reference/widget.md, What a visitor gets): the state of the
 * search, its place in the page's URL and history, did-you-mean, related keywords, and the
 * `data-state` of the host element.
 */
import { type SiteSearchClient, SiteSearchError, type SearchResponse } from '../client/index.js';
import type { WidgetOptions } from './options.js';
import type { Correction, PanelView } from './panel-view.js';
import { EMPTY_STATE, readState, sameState, type SearchState, toQuery, writeState } from './search-state.js';
import type { SuggestBox } from './suggest-box.js';

export type HostState = 'idle' | 'loading' | 'ready' | 'empty' | 'error';

export class Controller {
  state: SearchState = EMPTY_STATE;
  #exact = false;
  #search: AbortController | null = null;
  readonly #client: SiteSearchClient;
  readonly #options: WidgetOptions;
  readonly #hosts: HTMLElement[];
  box!: SuggestBox;
  panel!: PanelView;

  constructor(client: SiteSearchClient, options: WidgetOptions, hosts: HTMLElement[]) {
    this.#client = client;
    this.#options = options;
    this.#hosts = hosts;
  }

  /** Restores the state the page's URL holds, and follows back/forward. */
  start(): void {
    window.addEventListener('popstate', () => this.#restore());
    this.#restore();
  }

  /** A search for `q` typed or picked in the box: a new search from the first page. */
  submit(q: string): void {
    if (this.#options.resultsUrl !== null) {
      const url = new URL(this.#options.resultsUrl, location.href);
      url.searchParams.set('q', q);
      location.assign(url.href);
      return;
    }
    this.go({ q, page: 1, category: '', drilldown: [] });
  }

  /** Searches the current state with `change`; a change of filters or sort starts at page 1. */
  go(change: Partial<SearchState>, exact = false): void {
    const next: SearchState = { ...this.state, page: 1, ...change };
    const paging = change.page !== undefined && Object.keys(change).length === 1;
    if (next.q !== this.state.q) this.box.setValue(next.q);
    this.#exact = exact;
    if (!sameState(next, this.state)) history.pushState(history.state, '', this.hrefOf(next));
    void this.#run(next).then(() => {
      if (paging) this.panel.reveal();
    });
  }

  hrefOf(change: Partial<SearchState>): string {
    return writeState(location.href, this.#options.paramPrefix, { ...this.state, ...change });
  }

  open(url: string): void {
    this.#client.reportClick(url, this.state.q);
  }

  retry(): void {
    void this.#run(this.state);
  }

  #restore(): void {
    const state = readState(location.search, this.#options.paramPrefix);
    if (sameState(state, this.state)) return;
    this.box.setValue(state.q);
    // A box that sends to a results page shows no results of its own.
    if (this.#options.resultsUrl !== null) return;
    this.#exact = false;
    if (state.q === '') {
      this.#search?.abort();
      this.state = state;
      this.panel.idle();
      this.#setHost('idle');
      return;
    }
    void this.#run(state);
  }

  #setHost(state: HostState): void {
    for (const host of this.#hosts) host.setAttribute('data-state', state);
  }

  async #run(state: SearchState): Promise<void> {
    this.#search?.abort();
    const request = new AbortController();
    this.#search = request;
    this.state = state;
    this.#setHost('loading');
    this.panel.loading();
    const signal = request.signal;
    try {
      let answer = await this.#client.search(toQuery(state, this.#options.perPage), { signal });
      let correction: Correction | null = null;
      const phrase = answer.spellcheck.main_phrase;
      if (phrase !== '' && phrase !== state.q) {
        if (answer.organic.hits === 0 && !this.#exact) {
          // Nothing found, a correction would find something: show its results at once.
          const corrected = await this.#client.search(
            toQuery({ ...state, q: phrase }, this.#options.perPage),
            {
              signal,
            },
          );
          if (corrected.organic.hits > 0) {
            correction = { corrected: true, original: state.q, q: phrase };
            answer = corrected;
          } else correction = { corrected: false, q: phrase };
        } else if (!this.#exact) correction = { corrected: false, q: phrase };
      }
      this.#show(answer, correction);
      void this.#related(correction?.corrected ? correction.q : state.q, answer.organic.hits === 0, signal);
    } catch (error) {
      if (signal.aborted) return;
      const failure = error instanceof SiteSearchError ? error : new SiteSearchError('server', String(error));
      if (failure.kind === 'aborted') return;
      this.panel.error(
        failure.kind,
        failure.fields.map((field) => `${field.field}: ${field.reason}`).join('; ') || failure.message,
      );
      this.#setHost('error');
    }
  }

  #show(answer: SearchResponse, correction: Correction | null): void {
    const shown = correction?.corrected ? { ...this.state, q: correction.q } : this.state;
    this.panel.render(answer, shown, correction);
    this.#setHost(answer.organic.hits > 0 ? 'ready' : 'empty');
  }

  /** Related keywords; on an empty page without them, suggestions for the query help instead. */
  async #related(q: string, empty: boolean, signal: AbortSignal): Promise<void> {
    try {
      const answer = await this.#client.relatedKeywords(q, { signal });
      let words = answer.related_keywords.map((keyword) => keyword.word);
      if (empty && words.length === 0)
        words = (await this.#client.suggest(q, { signal })).suggestions.map((suggestion) => suggestion.word);
      if (signal.aborted) return;
      words = words.filter((word) => word !== q);
      this.panel.related(words.slice(0, 10));
    } catch {
      // Related keywords are a help: without them the results stand alone.
    }
  }
}
