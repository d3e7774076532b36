import { WHOLE_SITE, type CorpusSpec } from './corpus-spec.js';
import { docbookIndexEntries } from './docbook-index.js';

const INDEX_PAGE = 'gimp-help-index.html';
/** Kana or kanji: the index keeps some entries untranslated (`3D Transform`), left out here. */
const JAPANESE = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;

/** The GIMP manual in Japanese (DocBook), judged by its translated index (索引). */
export const GIMP_HELP_JA: CorpusSpec = {
  key: 'gimp',
  label: 'GIMP manual (Japanese)',
  debianPackage: 'gimp-help-ja',
  marker: INDEX_PAGE,
  baseUrl: 'https://docs.gimp.example/ja/',
  // index.html is the table of contents of the whole manual.
  site: WHOLE_SITE,
  isListing: (file) => file === INDEX_PAGE || file === 'index.html',
  indexFiles: () => [INDEX_PAGE],
  parseIndex: docbookIndexEntries,
  judgmentOptions: { maxQueries: 300, maxPages: 20, minChars: 2, accept: (query) => JAPANESE.test(query) },
  judgmentNote:
    'index (索引) entry written in Japanese → query: its term (`にじみ`, `レイヤー`); ' +
    'relevant: the pages the entry and its sub-entries link to',
  baselines: ['unicode61', 'trigram'],
};
