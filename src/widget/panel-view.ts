/**
 * The results panel (docs/reference/widget.md, Parts): hit count, did-you-mean, category
 * tabs, drill-down, sort, results, pager, related keywords, and the empty and error states.
 */
import type { SiteSearchErrorKind, SearchResponse } from '../client/index.js';
import { el, fill, show } from './dom.js';
import { categoryTabs, facetTree, sortSelect } from './facets-view.js';
import { pagerItems, resultItem } from './results-view.js';
import type { SearchState } from './search-state.js';
import { format, type Language, type TextKey, type Texts } from './texts.js';

/** Either the search was made for the correction, or the correction is only offered. */
export type Correction = { corrected: true; original: string; q: string } | { corrected: false; q: string };

export interface PanelActions {
  /** Searches the current state with `change` applied. */
  go(change: Partial<SearchState>, exact?: boolean): void;
  /** The page's URL for the current state with `change`, for links that can be opened elsewhere. */
  hrefOf(change: Partial<SearchState>): string;
  open(url: string): void;
  retry(): void;
}

const ERROR_TEXTS: Record<SiteSearchErrorKind | 'config', TextKey> = {
  origin: 'errorOrigin',
  not_found: 'errorNotFound',
  invalid: 'errorInvalid',
  unavailable: 'errorUnavailable',
  server: 'errorServer',
  network: 'errorNetwork',
  aborted: 'errorNetwork',
  config: 'errorConfig',
};
const RETRYABLE = ['network', 'unavailable', 'server'];

export class PanelView {
  readonly element: HTMLElement;
  readonly #status = el('div', 'status', { 'aria-live': 'polite' });
  readonly #sort = el('div', null, { class: 'sort-slot' });
  readonly #correction = el('p', 'correction', { hidden: '' });
  readonly #tabs: HTMLElement;
  readonly #facets: HTMLElement;
  readonly #main = el('div', null, { class: 'main' });
  readonly #results = el('ol', 'results', { id: 'kumo-results' });
  readonly #empty = el('div', 'empty', { hidden: '' });
  readonly #error = el('div', 'error', { hidden: '', role: 'alert' });
  readonly #pager: HTMLElement;
  readonly #related: HTMLElement;
  readonly #texts: Texts;
  readonly #language: Language;
  readonly #actions: PanelActions;
  #relatedWords: string[] = [];

  constructor(texts: Texts, language: Language, actions: PanelActions) {
    this.#texts = texts;
    this.#language = language;
    this.#actions = actions;
    this.#tabs = el('div', 'tabs', { role: 'tablist', 'aria-label': texts.categories, hidden: '' });
    this.#facets = el('nav', 'facets', { 'aria-label': texts.refine, hidden: '' });
    this.#pager = el('nav', 'pager', { 'aria-label': texts.pager, hidden: '' });
    this.#related = el('nav', 'related', { 'aria-label': texts.related, hidden: '' });
    this.#main.append(this.#results, this.#empty, this.#error, this.#pager, this.#related);
    this.element = el(
      'section',
      'panel',
      { role: 'region', 'aria-label': texts.results, hidden: '' },
      el('div', null, { class: 'top' }, this.#status, this.#sort),
      this.#correction,
      this.#tabs,
      el('div', null, { class: 'body' }, this.#facets, this.#main),
    );
  }

  idle(): void {
    show(this.element, false);
    // Back to a state without a search while one was in flight: nothing is loading any more.
    this.element.removeAttribute('aria-busy');
    fill(this.#status);
  }

  loading(): void {
    show(this.element, true);
    this.element.setAttribute('aria-busy', 'true');
    if (this.#results.childElementCount === 0 && this.#empty.hidden) fill(this.#status, this.#texts.loading);
  }

  render(answer: SearchResponse, state: SearchState, correction: Correction | null): void {
    const texts = this.#texts;
    const hits = answer.organic.hits;
    const q = state.q;
    this.#reset();
    const status =
      hits === 0
        ? format(texts.empty, { q })
        : format(hits === 1 ? texts.status1 : texts.status, {
            q,
            count: hits.toLocaleString(this.#language),
          });
    fill(this.#status, status);
    this.#status.classList.toggle('sr-only', hits === 0);
    this.#renderCorrection(correction);
    const categories = answer.category.items;
    if (categories.length > 0 || state.category !== '') {
      const items =
        categories.includes(state.category) || state.category === ''
          ? categories
          : [...categories, state.category];
      fill(
        this.#tabs,
        ...categoryTabs(items, state.category, texts, (category) =>
          this.#actions.go({ category, drilldown: [] }),
        ),
      );
      show(this.#tabs, true);
    }
    const tree = facetTree(answer.facet_drilldown_roots, (path) =>
      this.#actions.go({ drilldown: path === null ? [] : [path] }),
    );
    if (tree !== null) {
      fill(this.#facets, el('h2', null, { class: 'facets-title' }, texts.refine), tree);
      show(this.#facets, true);
    }
    if (hits > 0) {
      fill(
        this.#sort,
        sortSelect(state.sort, texts, (sort) => this.#actions.go({ sort })),
      );
      fill(
        this.#results,
        ...answer.organic.docs.map((doc) =>
          resultItem(doc, this.#language, (url) => this.#actions.open(url)),
        ),
      );
      this.#results.setAttribute('start', String(answer.organic.range_min || 1));
      const pages = Math.ceil(hits / Math.max(1, answer.parameter.number_per_page));
      if (pages > 1) {
        fill(this.#pager, ...pagerItems(state.page, pages, texts, (page) => this.#actions.go({ page })));
        show(this.#pager, true);
      }
    } else this.#renderEmpty(q);
    this.#renderRelated();
  }

  /** Related keywords of the query, shown as links that search for them. */
  related(words: string[]): void {
    this.#relatedWords = words;
    this.#renderRelated();
  }

  error(kind: SiteSearchErrorKind | 'config', reason: string): void {
    show(this.element, true);
    this.#reset();
    fill(this.#status);
    const retry = RETRYABLE.includes(kind);
    this.#error.setAttribute('data-error', kind);
    fill(
      this.#error,
      el('p', null, {}, format(this.#texts[ERROR_TEXTS[kind]], { reason })),
      retry ? this.#retryButton() : null,
    );
    show(this.#error, true);
  }

  /** Brings the top of the results into view when it scrolled above the window (paging). */
  reveal(): void {
    if (this.element.getBoundingClientRect().top < 0) this.element.scrollIntoView({ block: 'start' });
  }

  #retryButton(): HTMLButtonElement {
    const button = el('button', 'retry', { type: 'button' }, this.#texts.retry);
    button.addEventListener('click', () => this.#actions.retry());
    return button;
  }

  #reset(): void {
    this.element.removeAttribute('aria-busy');
    this.#relatedWords = [];
    for (const part of [
      this.#correction,
      this.#tabs,
      this.#facets,
      this.#empty,
      this.#error,
      this.#pager,
      this.#related,
    ])
      show(part, false);
    fill(this.#sort);
    fill(this.#results);
    this.#error.removeAttribute('data-error');
    this.#status.classList.remove('sr-only');
  }

  #link(q: string, change: Partial<SearchState>, go: () => void): HTMLAnchorElement {
    const link = el('a', 'correction-link', { href: this.#actions.hrefOf({ ...change, q }) }, q);
    link.addEventListener('click', (event) => {
      if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      go();
    });
    return link;
  }

  #renderCorrection(correction: Correction | null): void {
    if (correction === null) return;
    const texts = this.#texts;
    const fresh = { page: 1, category: '', drilldown: [] };
    if (correction.corrected) {
      const original = correction.original;
      fill(
        this.#correction,
        format(texts.showingFor, { q: el('strong', null, {}, correction.q) }),
        ' ',
        format(texts.searchInstead, {
          q: this.#link(original, fresh, () => this.#actions.go({ ...fresh, q: original }, true)),
        }),
      );
    } else {
      const q = correction.q;
      fill(
        this.#correction,
        format(texts.didYouMean, { q: this.#link(q, fresh, () => this.#actions.go({ ...fresh, q })) }),
      );
    }
    show(this.#correction, true);
  }

  #renderEmpty(q: string): void {
    const texts = this.#texts;
    fill(
      this.#empty,
      el('p', null, { class: 'empty-title' }, format(texts.empty, { q })),
      el('p', null, {}, texts.tipsTitle),
      el(
        'ul',
        null,
        {},
        ...(['tipSpelling', 'tipGeneral', 'tipFewer'] as const).map((key) => el('li', null, {}, texts[key])),
      ),
    );
    show(this.#empty, true);
  }

  #renderRelated(): void {
    const words = this.#relatedWords;
    show(this.#related, words.length > 0);
    if (words.length === 0) return;
    const links = words.map((word) => {
      const link = el(
        'a',
        'related-link',
        { href: this.#actions.hrefOf({ q: word, page: 1, category: '', drilldown: [] }) },
        word,
      );
      link.addEventListener('click', (event) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        this.#actions.go({ q: word, page: 1, category: '', drilldown: [] });
      });
      return el('li', null, {}, link);
    });
    fill(
      this.#related,
      el('h2', null, { class: 'related-title' }, this.#texts.related),
      el('ul', null, {}, ...links),
    );
  }
}
