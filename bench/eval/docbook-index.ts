import { DomUtils, parseDocument } from 'htmlparser2';
import { childElements, hasClass, leadingText, linkedPages, type IndexEntry } from './index-entry.js';

const BEFORE_LINKS = new Set(['a']);

/**
 * The entries of a DocBook index page (GIMP's gimp-help-index.html): `<dt>term, <a>…</a></dt>`,
 * optionally followed by a `<dd>` holding its sub-entries, whose pages join the entry's.
 */
export function docbookIndexEntries(html: string, indexPageUrl: string): IndexEntry[] {
  const sections = DomUtils.findAll(
    (element) => element.name === 'div' && hasClass(element, 'indexdiv'),
    parseDocument(html).children,
  );
  const entries: IndexEntry[] = [];
  for (const section of sections) {
    for (const list of childElements(section, 'dl')) {
      for (const term of childElements(list, 'dt')) {
        const next = DomUtils.nextElementSibling(term);
        const subEntries = next !== null && next.name === 'dd' ? [next] : [];
        const text = docbookQueryText(leadingText(term, BEFORE_LINKS));
        const pages = linkedPages([term, ...subEntries], indexPageUrl);
        if (text !== '' && pages.length > 0) entries.push({ term: text, pages });
      }
    }
  }
  return entries;
}

/**
 * What a reader would type for an index term: `きらめき...,` → `きらめき`. The trailing comma
 * separates the term from its links, and the ellipses are menu typography (a dialog follows).
 */
export function docbookQueryText(term: string): string {
  return term
    .replace(/,$/, '')
    .replace(/\.\.\.|…/g, ' ')
    .replace(/"/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
