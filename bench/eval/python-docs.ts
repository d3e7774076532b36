import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { WHOLE_SITE, type CorpusSpec } from './corpus-spec.js';
import { sphinxIndexEntries } from './sphinx-genindex.js';

/** Root pages that list or search the others rather than document anything. */
const NAVIGATION = new Set(['index.html', 'contents.html', 'search.html', 'py-modindex.html']);

/** The Python documentation (Sphinx), judged by its general index. */
export const PYTHON_DOCS: CorpusSpec = {
  key: 'python',
  label: 'Python documentation (English)',
  debianPackage: 'python3-doc',
  marker: 'genindex.html',
  baseUrl: 'https://docs.python.example/',
  site: WHOLE_SITE,
  isListing: (file) => NAVIGATION.has(file) || /^genindex/.test(file),
  indexFiles: (root) => {
    // The split index (one page a letter) also comes as a single page; either holds every entry.
    if (existsSync(path.join(root, 'genindex-all.html'))) return ['genindex-all.html'];
    const letters = readdirSync(root).filter((file) => /^genindex-.+\.html$/.test(file));
    return letters.length > 0 ? letters.sort() : ['genindex.html'];
  },
  parseIndex: sphinxIndexEntries,
  judgmentOptions: { maxQueries: 400, maxPages: 20, minChars: 3 },
  judgmentNote:
    'general index entry → query: its term without qualifier (`dumps() (in module json)` → `dumps`); ' +
    'relevant: the pages the entry and its sub-entries link to',
  baselines: ['unicode61'],
};
