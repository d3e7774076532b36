/**
 * A bundle's HTML page as bytes, on its way to the analysis threads: decoding it and extracting
 * its text (html-text.ts) is the larger half of the work of indexing a page, so it is done where
 * the page is analyzed, off the thread that writes the index (docs/design/search-engine.md,
 * Analysis off the writing thread).
 */
import { decodeHtml } from '../crawler/charset.js';
import type { ContentSelectors } from './content-selectors.js';
import { analyzePage, type AnalyzedPage } from './document-fields.js';
import { pageTextOf } from './html-text.js';
import type { IndexedDocument } from './indexed-document.js';

export interface HtmlPage {
  url: string;
  lastModified: number;
  /** As IndexedDocument's: no Last-Modified header, `lastModified` is the crawl's. */
  lastModifiedIsCrawlTime?: boolean;
  /** Bytes of the page as fetched. */
  contentSize: number;
  /** The page's HTML: the rendered DOM (UTF-8) when `rendered`, else the source as fetched. */
  html: Uint8Array;
  rendered: boolean;
  /** The Content-Type header of the source, for its charset. */
  contentType: string | undefined;
  /** The search service's content selectors (docs/reference/site-search.md, Content selectors). */
  selectors: ContentSelectors;
}

/** What a batch of pages to index holds: documents with their text, or HTML pages still to extract. */
export type PageToIndex = IndexedDocument | HtmlPage;

export function isHtmlPage(page: PageToIndex): page is HtmlPage {
  return 'html' in page;
}

/** The page's document: its own, or extracted from its HTML on this thread (undefined: noindex). */
export function documentOfPage(page: PageToIndex): IndexedDocument | undefined {
  return isHtmlPage(page) ? documentOfHtml(page) : page;
}

/** The document of an HTML page, or undefined when its markup says noindex. */
export function documentOfHtml(page: HtmlPage): IndexedDocument | undefined {
  const html = page.rendered
    ? Buffer.from(page.html.buffer, page.html.byteOffset, page.html.byteLength).toString('utf8')
    : decodeHtml(page.html, page.contentType).text;
  const text = pageTextOf(html, page.selectors, page.url);
  if (text.noindex) return undefined;
  return {
    url: page.url,
    lastModified: page.lastModified,
    ...(page.lastModifiedIsCrawlTime === true && { lastModifiedIsCrawlTime: true }),
    title: text.title,
    description: text.description,
    headings: text.headings,
    body: text.body,
    template: text.template,
    ...(text.language !== '' && { language: text.language }),
    ...(text.linksTo.length > 0 && { linksTo: text.linksTo }),
    contentSize: page.contentSize,
    doctype: 'html',
  };
}

/**
 * A batch analyzed where it is analyzed: for each HTML page the document extracted from it (null
 * when it says noindex; undefined for a page that came as a document), and the analysis of every
 * document to index, in order.
 */
export interface BatchAnalysis {
  extracted: (IndexedDocument | null | undefined)[];
  analyzed: AnalyzedPage[];
}

export function analyzeBatch(pages: readonly PageToIndex[]): BatchAnalysis {
  const extracted: (IndexedDocument | null | undefined)[] = [];
  const analyzed: AnalyzedPage[] = [];
  for (const page of pages) {
    const document = isHtmlPage(page) ? (documentOfHtml(page) ?? null) : page;
    extracted.push(isHtmlPage(page) ? document : undefined);
    if (document !== null) analyzed.push(analyzePage(document));
  }
  return { extracted, analyzed };
}

/**
 * A batch ready to write: its documents, their analysis, the HTML pages that said noindex, and
 * the pages whose analysis could not finish (AnalysisPool), with the reason.
 */
export interface AnalyzedBatch {
  documents: IndexedDocument[];
  analyzed: AnalyzedPage[];
  noindex: string[];
  failed: { url: string; reason: string }[];
}

/** The documents of `pages` once analyzed: the pages' own, or those extracted from their HTML. */
export function analyzedBatchOf(pages: readonly PageToIndex[], analysis: BatchAnalysis): AnalyzedBatch {
  const documents: IndexedDocument[] = [];
  const noindex: string[] = [];
  pages.forEach((page, index) => {
    if (!isHtmlPage(page)) documents.push(page);
    else {
      const document = analysis.extracted[index];
      if (document === null || document === undefined) noindex.push(page.url);
      else documents.push(document);
    }
  });
  return { documents, analyzed: analysis.analyzed, noindex, failed: [] };
}
