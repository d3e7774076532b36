/**
 * Highlighted texts of the API (`title_parts`, `url_parts`, …) as DOM: plain parts become text
 * nodes and highlighted ones `<mark part="mark">` elements, built by code
 * (docs/reference/widget.md, Parts), so a hostile title shows as text and runs nothing.
 */
import type { HighlightPart } from '../client/index.js';
import { el } from './dom.js';

export function highlighted(parts: readonly HighlightPart[]): DocumentFragment {
  const fragment = document.createDocumentFragment();
  for (const part of parts) {
    if (part.text === '') continue;
    fragment.appendChild(
      part.is_highlighted ? el('mark', 'mark', {}, part.text) : document.createTextNode(part.text),
    );
  }
  return fragment;
}

/** A suggestion with the part the visitor has not typed yet in bold, as search boxes show it. */
export function suggestionText(word: string, typed: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const prefix = typed.trim();
  if (prefix !== '' && word.toLowerCase().startsWith(prefix.toLowerCase()) && word.length > prefix.length) {
    fragment.append(word.slice(0, prefix.length), el('b', null, {}, word.slice(prefix.length)));
  } else fragment.append(word);
  return fragment;
}
