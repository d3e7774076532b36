import { DomUtils, parseDocument } from 'htmlparser2';
import { childElements, hasClass, leadingText, linkedPages, type IndexEntry } from './index-entry.js';

const BEFORE_SUB_ENTRIES = new Set(['ul']);

/**
 * The entries of a Sphinx general index page (genindex-all.html, or one genindex-X.html). An
 * entry is a top-level item of the index table; its sub-entries (`join()` → `(str method)`,
 * `json` → `module`) name the same term in other places, so their pages join the entry's.
 */
export function sphinxIndexEntries(html: string, indexPageUrl: string): IndexEntry[] {
  const tables = DomUtils.findAll(
    (element) => element.name === 'table' && hasClass(element, 'indextable'),
    parseDocument(html).children,
  );
  const entries: IndexEntry[] = [];
  for (const table of tables) {
    for (const list of DomUtils.findAll((element) => element.name === 'ul', [table])) {
      // Top-level lists sit in the table's cells; nested ones (sub-entries) are inside an li.
      if (list.parent === null || !DomUtils.isTag(list.parent) || list.parent.name !== 'td') continue;
      for (const item of childElements(list, 'li')) {
        const term = sphinxQueryText(leadingText(item, BEFORE_SUB_ENTRIES));
        const pages = linkedPages([item], indexPageUrl);
        if (term !== '' && pages.length > 0) entries.push({ term, pages });
      }
    }
  }
  return entries;
}

/**
 * What a reader would type for an index term: `dumps() (in module json), [1]` → `dumps`. The
 * `[1]` links, the qualifier in parentheses and the call parentheses are index typography;
 * leading dashes (command-line options) would read as an exclusion in a search box.
 */
export function sphinxQueryText(term: string): string {
  let text = term.replace(/(\s*,\s*\[\d+\])+$/, '').trim();
  for (;;) {
    const shorter = text.replace(/\s*\([^()]*\)$/, '');
    if (shorter === text || shorter === '') break;
    text = shorter;
  }
  return text.replace(/^-+/, '').replace(/"/g, '').trim();
}
