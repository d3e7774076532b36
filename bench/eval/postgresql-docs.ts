import type { CorpusSpec } from './corpus-spec.js';
import { docbookIndexEntries } from './docbook-index.js';

const INDEX_PAGE = 'bookindex.html';

/** The PostgreSQL 15 manual (DocBook), judged by its index. */
export const POSTGRESQL_DOCS: CorpusSpec = {
  key: 'postgresql',
  label: 'PostgreSQL manual (English)',
  debianPackage: 'postgresql-doc-15',
  marker: INDEX_PAGE,
  baseUrl: 'https://docs.postgresql.example/15/',
  // index.html is the table of contents of the whole manual.
  isContent: (file) => file !== INDEX_PAGE && file !== 'index.html',
  indexFiles: () => [INDEX_PAGE],
  parseIndex: docbookIndexEntries,
  judgmentOptions: { maxQueries: 400, maxPages: 20, minChars: 3 },
  judgmentNote:
    'index entry → query: its term (`pg_stat_activity`, `autovacuum`); ' +
    'relevant: the pages the entry and its sub-entries link to',
  baselines: ['unicode61'],
};
