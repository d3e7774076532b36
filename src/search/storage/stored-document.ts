import type { Doctype } from '../../domain/index.js';

/** The stored form of a document: its text (for display and highlighting) and where it is indexed. */
export interface StoredDocument {
  id: number;
  url: string;
  title: string;
  description: string;
  headings: string;
  body: string;
  /** Template text by markup, apart from the body (docs/reference/site-search.md, Page templates).
   */
  template: string;
  contentSize: number;
  lastModified: number;
  doctype: Doctype;
  /**
   * The language the page declares (src/search/page-language.ts), written with the document;
   * absent (stored as '') when it declares none. Not read back with the document's texts.
   */
  language?: string;
}
