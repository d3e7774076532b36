import type { CorpusSpec } from './corpus-spec.js';
import { crawledCorpus } from './crawled-corpus.js';
import type { CorpusMode, EvalCorpus } from './eval-corpus.js';
import { loadPages } from './page-documents.js';
import { SiteUrls } from './site-urls.js';
import { textBlocksOf } from './template-blocks.js';

/**
 * A set's pages: crawled from the served site (the measure), or, for comparison with runs made
 * before the eval crawled, its content pages read from disk, listing pages left out.
 */
export async function loadCorpus(
  spec: CorpusSpec,
  root: string,
  mode: CorpusMode,
  contentUrls: ReadonlySet<string>,
): Promise<EvalCorpus> {
  if (mode === 'crawl') return crawledCorpus(spec, root, contentUrls);
  const blocksByUrl = new Map<string, string[]>();
  const documents = loadPages(
    root,
    spec.baseUrl,
    (file) => !spec.isListing(file),
    (url, html) => blocksByUrl.set(url, textBlocksOf(html)),
  );
  return {
    mode,
    documents,
    blocksByUrl,
    urls: new SiteUrls(spec),
    dispose: () => Promise.resolve(),
  };
}
