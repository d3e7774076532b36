/**
 * The ranked results and the pager (docs/reference/widget.md, What a visitor gets): each result's
 * title links to the page itself, so navigation is never delayed and "copy link" gives the real
 * URL; the click is reported beside it.
 */
import type { OrganicDoc } from '../client/index.js';
import { el } from './dom.js';
import { highlighted } from './highlight.js';
import type { Language, Texts } from './texts.js';
import { formatText } from './texts.js';

const BADGES: Record<string, string> = { pdf: 'PDF', doc: 'Word', xls: 'Excel', ppt: 'PowerPoint' };
/** Page numbers shown around the current one, besides the first and the last. */
const PAGE_SPREAD = 2;

/**
 * Kumo indexes only http(s) pages, but the link is on a stranger's page: any other scheme
 * (`javascript:`, `data:`) becomes a harmless fragment rather than something a click could run.
 */
function webAddress(url: string): string {
  return /^https?:\/\//i.test(url) ? url : '#';
}

export function resultItem(
  doc: OrganicDoc,
  language: Language,
  onOpen: (url: string) => void,
): HTMLLIElement {
  const { highlight } = doc;
  const href = webAddress(doc.url);
  const title = el('a', 'result-title', { href });
  title.append(highlight.title_parts.length > 0 ? highlighted(highlight.title_parts) : doc.title || doc.url);
  // Left and middle clicks (a new tab) both open the page; neither waits for the report.
  const report = (event: MouseEvent) => {
    if ((event.button === 0 || event.button === 1) && href !== '#') onOpen(doc.url);
  };
  title.addEventListener('click', report);
  title.addEventListener('auxclick', report);
  const badge = BADGES[doc.doctype];
  const snippetParts =
    highlight.document_text_parts.length > 0 ? highlight.document_text_parts : highlight.description_parts;
  const snippet = snippetParts.length > 0 ? highlighted(snippetParts) : doc.start_text;
  return el(
    'li',
    'result',
    { 'data-doctype': doc.doctype },
    el(
      'h3',
      null,
      { class: 'heading' },
      badge === undefined ? null : el('span', 'badge', { 'data-doctype': doc.doctype }, badge),
      title,
    ),
    el(
      'div',
      null,
      { class: 'meta' },
      el(
        'span',
        'result-url',
        {},
        highlight.url_parts.length > 0 ? highlighted(highlight.url_parts) : doc.url,
      ),
      doc.last_modified > 0 ? dateOf(doc.last_modified, language) : null,
    ),
    snippet === '' ? null : el('p', 'result-snippet', {}, snippet),
  );
}

function dateOf(seconds: number, language: Language): HTMLTimeElement {
  const date = new Date(seconds * 1000);
  const text = new Intl.DateTimeFormat(language, { year: 'numeric', month: 'short', day: 'numeric' }).format(
    date,
  );
  return el('time', 'result-date', { datetime: date.toISOString().slice(0, 10) }, text);
}

/** Previous, numbers around the current page with the first and last, next. */
export function pagerItems(
  current: number,
  pages: number,
  texts: Texts,
  go: (page: number) => void,
): HTMLElement[] {
  const button = (page: number, part: string, label: string, text: string, disabled = false) => {
    const element = el('button', part, { type: 'button', 'aria-label': label }, text);
    if (page === current && part === 'page') element.setAttribute('aria-current', 'page');
    if (disabled) element.disabled = true;
    else element.addEventListener('click', () => go(page));
    return element;
  };
  const items: HTMLElement[] = [button(current - 1, 'page prev', texts.prev, '‹', current <= 1)];
  let last = 0;
  for (let page = 1; page <= pages; page++) {
    const near = Math.abs(page - current) <= PAGE_SPREAD;
    if (page !== 1 && page !== pages && !near) continue;
    if (page > last + 1) items.push(el('span', null, { class: 'gap', 'aria-hidden': 'true' }, '…'));
    items.push(button(page, 'page', formatText(texts.page, { n: page }), String(page)));
    last = page;
  }
  items.push(button(current + 1, 'page next', texts.next, '›', current >= pages));
  return items;
}
