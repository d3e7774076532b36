import { DomUtils, parseDocument } from 'htmlparser2';
import { childElements, linkedPages, type IndexEntry } from './index-entry.js';

/**
 * The entries of the Apache HTTP Server manual's directive index (mod/directives.html): each
 * directive, linked to the module page that defines it. `<Directory>` is typed `Directory`.
 */
export function apacheDirectiveEntries(html: string, indexPageUrl: string): IndexEntry[] {
  const lists = DomUtils.findAll(
    (element) => DomUtils.getAttributeValue(element, 'id') === 'directive-list',
    parseDocument(html).children,
  );
  const items = DomUtils.findAll((element) => element.name === 'li', lists);
  const entries: IndexEntry[] = [];
  for (const item of items) {
    const term = DomUtils.textContent(item).replace(/[<>]/g, '').replace(/\s+/g, ' ').trim();
    const pages = linkedPages([item], indexPageUrl);
    if (term !== '' && pages.length > 0) entries.push({ term, pages });
  }
  return entries;
}

/**
 * The entries of the manual's glossary (用語, glossary.html): each term, linked to the manual
 * pages its "参照" (see also) line names. Links to other glossary terms and to other sites are
 * not pages of the manual about the term and are left out.
 */
export function apacheGlossaryEntries(html: string, indexPageUrl: string): IndexEntry[] {
  const entries: IndexEntry[] = [];
  const lists = DomUtils.findAll((element) => element.name === 'dl', parseDocument(html).children);
  for (const list of lists) {
    for (const term of childElements(list, 'dt')) {
      const definition = DomUtils.nextElementSibling(term);
      if (definition === null || definition.name !== 'dd') continue;
      const seeAlso = DomUtils.findAll(
        (element) =>
          element.name === 'a' &&
          !(DomUtils.getAttributeValue(element, 'class') ?? '').includes('glossarylink'),
        [definition],
      );
      const pages = linkedPages(seeAlso, indexPageUrl).filter((page) =>
        page.startsWith(new URL('./', indexPageUrl).href),
      );
      const text = glossaryQueryText(DomUtils.textContent(term));
      if (text !== '' && pages.length > 0) entries.push({ term: text, pages });
    }
  }
  return entries;
}

/**
 * What a reader would type for a glossary term: `証明書署名リクエスト (訳注: Certificate Signing
 * Request) (CSR)` → `証明書署名リクエスト`; the parentheses hold a translator's note or an
 * abbreviation.
 */
export function glossaryQueryText(term: string): string {
  let text = term.replace(/\s+/g, ' ').trim();
  for (;;) {
    const shorter = text.replace(/\s*\([^()]*\)$/, '');
    if (shorter === text || shorter === '') break;
    text = shorter;
  }
  return text;
}
