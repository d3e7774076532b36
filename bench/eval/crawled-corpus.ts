import { readFileSync } from 'node:fs';
import path from 'node:path';
import { bundleDocuments, documentOfPage } from '../../src/search/indexing.js';
import type { Doctype } from '../../src/search/index.js';
import type { CorpusSpec } from './corpus-spec.js';
import type { EvalCorpus } from './eval-corpus.js';
import type { EvalDocument } from './page-documents.js';
import { crawlSite } from './site-crawl.js';
import { SiteUrls } from './site-urls.js';
import { textBlocksOf } from './template-blocks.js';

const PROGRESS_EVERY = 200;

/**
 * A set as a site owner's crawl gives it to a search service (docs/search-evaluation.md, Relevance
 * evaluation): the site crawled by the crawler, every document of the run's bundle as the indexer
 * reads it (extraction, canonical pages, noindex), under the set's URLs for the baselines and the
 * judgments; the engine is fed the bundle itself. `contentUrls` are the pages judged among.
 */
export async function crawledCorpus(
  spec: CorpusSpec,
  root: string,
  contentUrls: ReadonlySet<string>,
): Promise<EvalCorpus> {
  process.stderr.write(`  crawling the site served from ${path.resolve(root, spec.site.servedFolder)}\n`);
  const crawl = await crawlSite(root, spec.site);
  try {
    const urls = new SiteUrls(spec, crawl.crawlRoot);
    const documents: EvalDocument[] = [];
    const blocksByUrl = new Map<string, string[]>();
    const byDoctype: Partial<Record<Doctype, number>> = {};
    const seen = new Set<string>();
    for await (const page of bundleDocuments(crawl.bundleFile)) {
      const document = documentOfPage(page);
      if (document === undefined) continue;
      // As the indexer does: two fetched URLs ending at one final URL are one document.
      if (seen.has(document.url)) continue;
      seen.add(document.url);
      const url = urls.setUrlOf(document.url);
      const doctype = document.doctype ?? 'html';
      byDoctype[doctype] = (byDoctype[doctype] ?? 0) + 1;
      documents.push({
        url,
        title: document.title,
        description: document.description,
        headings: document.headings,
        body: document.body,
        template: document.template,
        doctype,
      });
      const relative = urls.relativePathOf(url);
      // The site serves the files as they are, so a page's HTML is its file.
      if (doctype === 'html' && relative !== undefined && !blocksByUrl.has(url)) {
        blocksByUrl.set(url, textBlocksOf(readFileSync(path.join(root, relative), 'utf8')));
      }
      if (documents.length % PROGRESS_EVERY === 0) {
        process.stderr.write(`  ${documents.length} crawled documents read\n`);
      }
    }
    const reached = new Set(documents.map(({ url }) => url));
    process.stderr.write(
      `  crawl: ${crawl.fetched} URLs fetched in ${crawl.seconds.toFixed(1)} s, ${documents.length} documents\n`,
    );
    return {
      mode: 'crawl',
      documents,
      blocksByUrl,
      urls,
      run: { bundleFile: crawl.bundleFile, outcomes: crawl.outcomes },
      crawl: {
        fetched: crawl.fetched,
        gone: crawl.outcomes.gone.size,
        failed: crawl.outcomes.failed.size,
        seconds: crawl.seconds,
        documents: byDoctype,
        listingPages: [...reached].filter((url) => urls.isListing(url)).length,
        contentNotReached: [...contentUrls].filter((url) => !reached.has(url)).length,
      },
      dispose: crawl.dispose,
    };
  } catch (error) {
    await crawl.dispose();
    throw error;
  }
}
