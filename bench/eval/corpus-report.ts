import type { CorpusSpec } from './corpus-spec.js';
import type { EvalCorpus } from './eval-corpus.js';
import { line } from './eval-report.js';
import type { SiteUrls } from './site-urls.js';

/** Listing pages named under a set's figures. */
const WINNERS_SHOWN = 5;

/** What was indexed: the crawl's counts, or the pages read from disk. */
export function printCorpus(
  spec: CorpusSpec,
  root: string,
  corpus: EvalCorpus,
  packageVersion: string,
): void {
  const source = `Debian ${spec.debianPackage} ${packageVersion}: ${root}`;
  const { crawl } = corpus;
  if (crawl === undefined) {
    line('corpus', `${corpus.documents.length} content pages read from disk, ${source}`);
    return;
  }
  const byDoctype = Object.entries(crawl.documents)
    .map(([doctype, count]) => `${count} ${doctype}`)
    .join(', ');
  line('corpus', `crawled from ${spec.site.path} of the site, ${source}`);
  line(
    'crawl',
    `${crawl.fetched} URLs fetched in ${crawl.seconds.toFixed(1)} s, ${crawl.gone} gone (404/410), ` +
      `${crawl.failed} failed`,
  );
  line(
    'indexed',
    `${corpus.documents.length} documents (${byDoctype}), ${crawl.listingPages} of them listing pages; ` +
      `content pages not reached: ${crawl.contentNotReached}`,
  );
}

/** The listing pages the engine put above the relevant page most often. */
export function printListingWinners(
  urls: SiteUrls,
  winners: readonly { url: string; queries: number }[],
): void {
  if (winners.length === 0) return;
  line(
    'listing pages above',
    winners
      .slice(0, WINNERS_SHOWN)
      .map(({ url, queries }) => `${urls.relativePathOf(url) ?? url} (${queries})`)
      .join(', '),
  );
}
