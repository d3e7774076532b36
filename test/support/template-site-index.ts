/**
 * A search index of the template sites (template-site.ts): the English reference and the
 * Japanese manual, fed as a crawl run feeds a search service, so its hosts have template lines.
 */
import path from 'node:path';
import { applyRunToIndex } from '../../src/search/indexing.js';
import { SearchIndex } from '../../src/search/local-index.js';
import { writeBundle } from './crawl-bundle.js';
import { manualBundle, referenceBundle } from './template-site.js';

export async function templateSiteIndex(folder: string): Promise<SearchIndex> {
  const index = new SearchIndex(path.join(folder, 'service-1.db'));
  const bundle = path.join(folder, 'run.tar.gz');
  writeBundle(bundle, [...referenceBundle(), ...manualBundle()]);
  await applyRunToIndex(index, 'run-1', 'setting:1', bundle, {
    gone: new Set(),
    failed: new Set(),
    complete: false,
  });
  return index;
}
