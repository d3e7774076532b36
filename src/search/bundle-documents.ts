import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { extract } from 'tar-stream';
import {
  DocumentTextError,
  extractableKindOf,
  extractDocumentText,
  type ExtractableKind,
} from './extract/document-text.js';
import { CanonicalPages } from './canonical-pages.js';
import type { ContentSelectors } from './content-selectors.js';
import type { HtmlPage, PageToIndex } from './html-page.js';
import type { Doctype } from './indexed-document.js';

/** What one page folder of a crawl bundle holds, by file name. */
type PageFiles = Map<string, Buffer>;

/**
 * meta.json of a bundle page folder (docs/reference/artifacts.md, meta.json), the fields indexing
 * reads.
 */
interface PageMeta {
  url: string;
  last_url?: string | null;
  http_status?: number | null;
  headers?: Record<string, string>;
  crawl_datetime?: string;
  robots?: string[];
  /** Another URL of the crawl the page names as its canonical one. */
  canonical?: string;
  /** A copy a 304 kept: when it was fetched whole. */
  stored_datetime?: string;
}

/** The bundle file itself cannot be read: not gzip, not tar, or cut short. */
export class BundleReadError extends Error {
  override name = 'BundleReadError';
}

/** A page that was not indexed, and why (shown to the person running `kumo index`). */
export interface SkippedPage {
  url: string;
  reason: string;
}

const DOCTYPE_OF_KIND: Record<ExtractableKind, Doctype> = {
  pdf: 'pdf',
  doc: 'doc',
  docx: 'doc',
  xls: 'xls',
  xlsx: 'xls',
  ppt: 'ppt',
  pptx: 'ppt',
};

/**
 * The searchable pages of a `crawl_objects.tar.gz`: one per page folder that answered 2xx,
 * unless its canonical page is a document of the bundle too (`onNoindex` is told of those pages and
 * of noindex ones).
 * An HTML page comes as its rendered `dom.html` when there is one (what a visitor sees), else
 * `source.html` with its Content-Type, to be decoded and extracted where it is analyzed
 * (html-page.ts), which tells of a page whose markup says noindex; PDF and office files have their
 * text extracted here. Pages marked noindex in the crawl's meta (meta robots or X-Robots-Tag) are
 * left out. `selectors` are the
 * search service's content selectors (docs/reference/site-search.md, Content selectors); `owner`
 * (a contract) is whose turn at the extraction threads the documents take (extraction-pool.ts). The
 * bundle is read as a stream: a folder's files are contiguous in it, so only one page is held at a
 * time here.
 */
export async function* bundleDocuments(
  bundleFile: string,
  onSkip: (skipped: SkippedPage) => void = () => undefined,
  onNoindex: (url: string) => void = () => undefined,
  selectors: ContentSelectors = {},
  owner?: string,
): AsyncGenerator<PageToIndex> {
  const givingWay = await pagesGivingWay(bundleFile);
  let folder: string | undefined;
  let files: PageFiles = new Map();
  for await (const entry of readEntries(bundleFile, () => true)) {
    const { name, data } = entry;
    const slash = name.lastIndexOf('/');
    if (name.slice(0, slash) !== folder) {
      const document =
        folder === undefined
          ? undefined
          : await documentOf(files, givingWay, onSkip, onNoindex, selectors, owner);
      if (document !== undefined) yield document;
      folder = name.slice(0, slash);
      files = new Map();
    }
    files.set(name.slice(slash + 1), data);
  }
  const last = await documentOf(files, givingWay, onSkip, onNoindex, selectors, owner);
  if (last !== undefined) yield last;
}

/**
 * The pages of the bundle (by the URL they would be indexed under) whose canonical page is a
 * document of the same bundle: a 2xx page not marked noindex (canonical-pages.ts). Read from the
 * meta.json files only, in a first pass over the bundle.
 */
async function pagesGivingWay(bundleFile: string): Promise<Set<string>> {
  const pages = new CanonicalPages();
  try {
    for await (const { data } of readEntries(bundleFile, (name) => name.endsWith('/meta.json'))) {
      const meta = JSON.parse(data.toString('utf8')) as PageMeta;
      if (!storedDocument(meta.http_status)) continue;
      if (noindexIn(meta.robots) || /\bnoindex\b/i.test(meta.headers?.['x-robots-tag'] ?? '')) continue;
      pages.add(meta.url, meta.last_url ?? meta.url, meta.canonical);
    }
  } catch (error) {
    // A bundle cut short fails the second pass at the same place, after the pages before it, which
    // is where a reader of the bundle expects the error.
    if (!(error instanceof BundleReadError)) throw error;
  }
  return pages.givingWay();
}

/**
 * The bundle's entries that `wanted` names, read whole (the others are passed over); a failure of
 * gzip or tar becomes a BundleReadError naming the file.
 */
async function* readEntries(
  bundleFile: string,
  wanted: (name: string) => boolean,
): AsyncGenerator<{ name: string; data: Buffer }> {
  const extractor = extract();
  const source = createReadStream(bundleFile).pipe(createGunzip());
  source.on('error', (error) => extractor.destroy(error));
  source.pipe(extractor);
  try {
    for await (const entry of extractor) {
      if (!wanted(entry.header.name)) {
        entry.resume();
        continue;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      yield { name: entry.header.name, data: Buffer.concat(chunks) };
    }
  } catch (error) {
    throw new BundleReadError(
      `${bundleFile} is not a readable crawl bundle (tar.gz): ${(error as Error).message}`,
    );
  }
}

async function documentOf(
  files: PageFiles,
  givingWay: ReadonlySet<string>,
  onSkip: (skipped: SkippedPage) => void,
  onNoindex: (url: string) => void,
  selectors: ContentSelectors,
  owner: string | undefined,
): Promise<PageToIndex | undefined> {
  const metaFile = files.get('meta.json');
  if (metaFile === undefined) return undefined;
  const meta = JSON.parse(metaFile.toString('utf8')) as PageMeta;
  if (!storedDocument(meta.http_status)) return undefined;
  const url = meta.last_url ?? meta.url;
  const headers = meta.headers ?? {};
  const modified = Date.parse(headers['last-modified'] ?? '');
  const common = Number.isFinite(modified)
    ? { url, lastModified: Math.floor(modified / 1000) }
    : // A kept copy dates from when it was fetched whole, so it stays the same document.
      {
        url,
        lastModified: crawlTimeOf(meta.stored_datetime ?? meta.crawl_datetime),
        lastModifiedIsCrawlTime: true,
      };
  // A page whose canonical page is a document of the bundle gives way to it
  // (docs/reference/crawl-rules.md, Canonical pages).
  if (givingWay.has(url) || noindexIn(meta.robots) || /\bnoindex\b/i.test(headers['x-robots-tag'] ?? '')) {
    onNoindex(url);
    return undefined;
  }

  const dom = files.get('dom.html');
  const html = files.get('source.html') ?? files.get('source.xhtml');
  if (dom !== undefined || html !== undefined) {
    // Decoded and extracted by the analysis threads (html-page.ts), which tell of a page whose
    // markup says noindex.
    const page: HtmlPage = {
      ...common,
      html: (dom ?? html)!,
      rendered: dom !== undefined,
      contentType: headers['content-type'],
      contentSize: (html ?? dom)!.length,
      selectors,
    };
    return page;
  }
  for (const [name, bytes] of files) {
    const kind = name.startsWith('source.') ? extractableKindOf(name) : undefined;
    if (kind === undefined) continue;
    try {
      const text = await extractDocumentText(bytes, kind, { owner });
      return {
        ...common,
        title: text.title !== '' ? text.title : fileNameOf(url),
        description: '',
        body: text.body,
        contentSize: bytes.length,
        doctype: DOCTYPE_OF_KIND[kind],
      };
    } catch (error) {
      if (!(error instanceof DocumentTextError)) throw error;
      onSkip({ url, reason: error.message });
      return undefined;
    }
  }
  return undefined;
}

/** A 2xx answer, or a 304 that kept the copy an earlier run stored (its files are that copy). */
function storedDocument(status: number | null | undefined): boolean {
  return status === 304 || (status !== null && status !== undefined && status >= 200 && status <= 299);
}

function noindexIn(robots: readonly string[] | undefined): boolean {
  return (robots ?? []).some((directive) => /\bnoindex\b/i.test(directive));
}

/**
 * Unix seconds of the crawl, the last-modified date of a page without a Last-Modified header
 * (docs/reference/site-search.md, Indexed documents).
 */
function crawlTimeOf(crawlDatetime: string | undefined): number {
  const crawled = Date.parse(crawlDatetime ?? '');
  return Number.isFinite(crawled) ? Math.floor(crawled / 1000) : 0;
}

/** `report%202024.pdf` of a URL, decoded: the title of a document without one. */
function fileNameOf(url: string): string {
  const name = new URL(url).pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}
