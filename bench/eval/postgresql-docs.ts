import { WHOLE_SITE, type CorpusSpec } from './corpus-spec.js';
import { docbookIndexEntries } from './docbook-index.js';
import type { IndexEntry } from './index-entry.js';

const INDEX_PAGE = 'bookindex.html';

/**
 * What a reader would type for an index term: `work_mem configuration parameter` → `work_mem`,
 * `box (data type)` → `box`. The index qualifies settings and some types; people type the name.
 */
export function postgresqlQueryText(term: string): string {
  return term
    .replace(/\s+(configuration|storage) parameter$/, '')
    .replace(/\s*\([^()]*\)$/, '')
    .trim();
}

function postgresqlIndexEntries(html: string, indexPageUrl: string): IndexEntry[] {
  return docbookIndexEntries(html, indexPageUrl)
    .map(({ term, pages }) => ({ term: postgresqlQueryText(term), pages }))
    .filter(({ term }) => term !== '');
}

/** The PostgreSQL 15 manual (DocBook), judged by its index. */
export const POSTGRESQL_DOCS: CorpusSpec = {
  key: 'postgresql',
  label: 'PostgreSQL manual (English)',
  debianPackage: 'postgresql-doc-15',
  marker: INDEX_PAGE,
  baseUrl: 'https://docs.postgresql.example/15/',
  // index.html is the table of contents of the whole manual.
  site: WHOLE_SITE,
  isListing: (file) => file === INDEX_PAGE || file === 'index.html',
  indexFiles: () => [INDEX_PAGE],
  parseIndex: postgresqlIndexEntries,
  judgmentOptions: { maxQueries: 400, maxPages: 20, minChars: 3 },
  judgmentNote:
    'index entry → query: its term without qualifier (`work_mem configuration parameter` → `work_mem`); ' +
    'relevant: the pages the entry and its sub-entries link to',
  baselines: ['unicode61'],
};
