import type { CorpusSpec } from './corpus-spec.js';
import { apacheDirectiveEntries, apacheGlossaryEntries } from './apache-index.js';
import type { IndexEntry } from './index-entry.js';

const DIRECTIVE_INDEX = 'mod/directives.html';
const GLOSSARY = 'glossary.html';
/** Pages that list the others (sitemap, module and directive lists) or are the judgments' source. */
const NAVIGATION = new Set([
  'index.html',
  'sitemap.html',
  GLOSSARY,
  DIRECTIVE_INDEX,
  'mod/quickreference.html',
  'mod/index.html',
]);

/**
 * The Apache HTTP Server 2.4 manual in Japanese (apache2-doc, manual/ja). The whole manual (every
 * language) is the site; its owner would crawl the Japanese manual's folder only. Untranslated
 * pages are symlinks to the English ones there: the site serves them under ja/, so they are
 * crawled, but only the translated pages (regular files) are judged. Judged by two lists its
 * authors made: the directive index (a directive → the module page defining it) and the glossary
 * (用語 → its see-also pages).
 */
export const APACHE_HTTPD_JA: CorpusSpec = {
  key: 'apache',
  label: 'Apache httpd manual (Japanese)',
  debianPackage: 'apache2-doc',
  marker: `ja/${GLOSSARY}`,
  baseUrl: 'https://httpd.apache.example/docs/2.4/ja/',
  site: { servedFolder: '..', path: '/ja/' },
  isListing: (file) => NAVIGATION.has(file),
  indexFiles: () => [DIRECTIVE_INDEX, GLOSSARY],
  parseIndex: (html: string, indexPageUrl: string): IndexEntry[] =>
    indexPageUrl.endsWith(`/${GLOSSARY}`)
      ? apacheGlossaryEntries(html, indexPageUrl)
      : apacheDirectiveEntries(html, indexPageUrl),
  judgmentOptions: { maxQueries: 300, maxPages: 20, minChars: 2 },
  judgmentNote:
    'directive index entry → query: the directive (`AllowOverride`), relevant: the module page defining it; ' +
    'glossary (用語) term → query: the term without parentheses (`バーチャルホスト`), relevant: its see-also pages',
  baselines: ['unicode61', 'trigram'],
};
