/**
 * The search box and its suggestions (docs/reference/widget.md, What a visitor gets): the WAI-ARIA
 * 1.2 combobox pattern with a listbox popup. Suggestions are asked 60 ms after the last keystroke,
 * the request of a superseded keystroke is aborted and late answers are dropped; nothing is asked
 * and Enter submits nothing while an IME composition is in progress.
 */
import { CLEAR_ICON, el, fill, icon, SEARCH_ICON, show } from './dom.js';
import { suggestionText } from './highlight.js';
import type { Texts } from './texts.js';

const DEBOUNCE_MS = 60;
const CACHE_ENTRIES = 64;

export interface SuggestBoxOptions {
  texts: Texts;
  placeholder: string;
  /** 0 turns suggestions off. */
  suggestCount: number;
  suggest(q: string, signal: AbortSignal): Promise<string[]>;
  onSubmit(q: string): void;
}

export class SuggestBox {
  readonly form: HTMLFormElement;
  readonly input: HTMLInputElement;
  readonly #listbox: HTMLUListElement;
  readonly #clear: HTMLButtonElement;
  readonly #options: SuggestBoxOptions;
  readonly #cache = new Map<string, string[]>();
  #words: string[] = [];
  #active = -1;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #request: AbortController | null = null;
  #composing = false;
  /** Set by a keydown that belonged to the IME, for the implicit submission that may follow it. */
  #imeKey = false;

  constructor(options: SuggestBoxOptions) {
    this.#options = options;
    const { texts } = options;
    this.input = el('input', 'input', {
      id: 'kumo-input',
      type: 'search',
      role: 'combobox',
      'aria-expanded': 'false',
      'aria-controls': 'kumo-listbox',
      'aria-autocomplete': 'list',
      autocomplete: 'off',
      autocapitalize: 'off',
      spellcheck: 'false',
      enterkeyhint: 'search',
      placeholder: options.placeholder,
    });
    this.#clear = el(
      'button',
      'clear',
      { type: 'button', 'aria-label': texts.clear, hidden: '' },
      icon(CLEAR_ICON),
    );
    this.#listbox = el('ul', 'listbox', {
      id: 'kumo-listbox',
      role: 'listbox',
      'aria-label': texts.suggestions,
      hidden: '',
    });
    this.form = el(
      'form',
      'form',
      { role: 'search', 'aria-label': texts.label, action: '' },
      el('label', 'label', { for: 'kumo-input' }, texts.label),
      el(
        'div',
        null,
        { class: 'field' },
        icon(SEARCH_ICON),
        this.input,
        this.#clear,
        el('button', 'submit', { type: 'submit' }, texts.submit),
      ),
      this.#listbox,
    );
    this.#listen();
  }

  /** Puts `q` in the box without asking for suggestions (a search from the URL or a link). */
  setValue(q: string): void {
    this.input.value = q;
    this.#close();
    show(this.#clear, q !== '');
  }

  #listen(): void {
    const input = this.input;
    input.addEventListener('compositionstart', () => {
      this.#composing = true;
      this.#cancel();
    });
    input.addEventListener('compositionend', () => {
      this.#composing = false;
      // The composed text is what the visitor meant: suggest for it now.
      this.#schedule();
    });
    input.addEventListener('input', (event) => {
      show(this.#clear, input.value !== '');
      if (this.#composing || (event as InputEvent).isComposing) return;
      this.#schedule();
    });
    input.addEventListener('keydown', (event) => this.#onKey(event));
    input.addEventListener('blur', () => this.#close());
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      // An Enter that confirmed an IME composition is not a search.
      if (this.#composing || this.#imeKey) return;
      this.#submit(input.value);
    });
    this.#clear.addEventListener('click', () => {
      this.setValue('');
      this.#cancel();
      input.focus();
    });
    // Keeps the focus in the box, so its blur does not close the list before the click lands.
    this.#listbox.addEventListener('pointerdown', (event) => event.preventDefault());
    this.#listbox.addEventListener('click', (event) => {
      const index = this.#indexOf(event.target);
      if (index >= 0) this.#pick(index);
    });
    this.#listbox.addEventListener('pointermove', (event) => {
      const index = this.#indexOf(event.target);
      if (index >= 0 && index !== this.#active) this.#activate(index);
    });
  }

  #onKey(event: KeyboardEvent): void {
    if (this.#composing || event.isComposing || event.keyCode === 229) {
      this.#imeKey = true;
      setTimeout(() => (this.#imeKey = false));
      return;
    }
    const open = !this.#listbox.hidden;
    const count = this.#words.length;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        event.preventDefault();
        if (!open) {
          if (count > 0 && this.input.value.trim() !== '') this.#open();
          else this.#schedule(0);
          return;
        }
        const step = event.key === 'ArrowDown' ? 1 : -1;
        // Cycles through the options and back to the box itself (-1).
        const next = ((this.#active + step + 1 + count + 1) % (count + 1)) - 1;
        this.#activate(next);
        return;
      }
      case 'Enter':
        event.preventDefault();
        if (open && this.#active >= 0) this.#pick(this.#active);
        else this.#submit(this.input.value);
        return;
      case 'Escape':
        if (open) this.#close();
        else if (this.input.value !== '') this.setValue('');
        else return;
        event.preventDefault();
        this.#cancel();
        return;
      case 'Tab':
        this.#close();
        return;
    }
  }

  #submit(value: string): void {
    const q = value.trim();
    this.#cancel();
    this.#close();
    if (q !== '') this.#options.onSubmit(q);
  }

  #pick(index: number): void {
    const word = this.#words[index];
    if (word === undefined) return;
    this.setValue(word);
    this.#submit(word);
  }

  #indexOf(target: EventTarget | null): number {
    const option = target instanceof Element ? target.closest('[role="option"]') : null;
    return option === null ? -1 : Number(option.getAttribute('data-index'));
  }

  #cancel(): void {
    clearTimeout(this.#timer);
    this.#request?.abort();
    this.#request = null;
  }

  #schedule(delayMs = DEBOUNCE_MS): void {
    this.#cancel();
    if (this.#options.suggestCount === 0) return;
    const q = this.input.value.trim();
    if (q === '') {
      this.#close();
      return;
    }
    const cached = this.#cache.get(q);
    if (cached !== undefined) {
      this.#render(q, cached);
      return;
    }
    this.#timer = setTimeout(() => void this.#ask(q), delayMs);
  }

  async #ask(q: string): Promise<void> {
    const request = new AbortController();
    this.#request = request;
    let words: string[];
    try {
      words = await this.#options.suggest(q, request.signal);
    } catch {
      // Suggestions are a help, not the search: a failed call shows none, the search tells why.
      return;
    }
    if (this.#cache.size >= CACHE_ENTRIES) this.#cache.delete(this.#cache.keys().next().value as string);
    this.#cache.set(q, words);
    // A newer keystroke or a composition superseded this question: its answer is stale.
    if (request.signal.aborted || this.#composing || this.input.value.trim() !== q) return;
    this.#request = null;
    this.#render(q, words);
  }

  #render(q: string, words: string[]): void {
    this.#words = words.slice(0, this.#options.suggestCount);
    this.#active = -1;
    fill(
      this.#listbox,
      ...this.#words.map((word, index) =>
        el(
          'li',
          'option',
          {
            id: `kumo-option-${index}`,
            role: 'option',
            'aria-selected': 'false',
            'data-index': String(index),
          },
          suggestionText(word, q),
        ),
      ),
    );
    if (this.#words.length > 0 && this.input.matches(':focus')) this.#open();
    else this.#close();
  }

  #open(): void {
    show(this.#listbox, true);
    this.input.setAttribute('aria-expanded', 'true');
  }

  #close(): void {
    show(this.#listbox, false);
    this.input.setAttribute('aria-expanded', 'false');
    this.#activate(-1);
  }

  #activate(index: number): void {
    this.#active = index;
    const options = this.#listbox.children;
    for (let i = 0; i < options.length; i++) {
      const option = options[i]!;
      option.setAttribute('aria-selected', String(i === index));
      option.setAttribute('part', i === index ? 'option active' : 'option');
    }
    const active = options[index];
    if (active === undefined) this.input.removeAttribute('aria-activedescendant');
    else {
      this.input.setAttribute('aria-activedescendant', active.id);
      active.scrollIntoView({ block: 'nearest' });
    }
  }
}
