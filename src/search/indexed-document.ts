import type { Doctype } from '../domain/index.js';

export { DOCTYPES, type Doctype } from '../domain/index.js';

/**
 * A page as the indexer hands it to a search index (docs/reference/site-search.md, Indexed
 * documents).
 */
export interface IndexedDocument {
  url: string;
  title: string;
  /** meta description; empty when the page has none (the API then shows the start of the body). */
  description: string;
  /** Text of headings (h1-h6) and definition terms (dt), one a line, which rank between the title and the body. */
  headings?: string;
  /** Main text, one line per block element (html-text.ts). */
  body: string;
  /**
   * Template text by markup (nav, header, footer, aside): stored, never indexed or shown
   * (docs/reference/site-search.md, Page templates).
   */
  template?: string;
  /** Bytes of the document as fetched. */
  contentSize?: number;
  /** Unix seconds: the Last-Modified header, else the crawl time. */
  lastModified?: number;
  /**
   * True when the page sent no Last-Modified header, so `lastModified` is only when it was
   * crawled: that alone does not make it another document (not part of its content hash), and a
   * page found unchanged keeps the date of the crawl that first found its text.
   */
  lastModifiedIsCrawlTime?: boolean;
  doctype?: Doctype;
  /**
   * The language the page declares, a lowercase language tag (`en`, `pt-br`: page-language.ts);
   * absent when it declares none.
   */
  language?: string;
  /**
   * The pages this one links to (outgoing-links.ts), counted by the indexing pass into each
   * page's inbound links; not stored with the document nor part of its content hash.
   */
  linksTo?: readonly string[];
}
