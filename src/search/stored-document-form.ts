import { createHash } from 'node:crypto';
import type { StoredDocument } from './storage/stored-document.js';
import type { IndexedDocument } from './indexed-document.js';
import { wellFormed } from '../util/index.js';

/**
 * The row form of a document to index (defaults filled in), its texts well-formed: a lone
 * surrogate would be written to SQLite as bytes that read back as three U+FFFD, so what is
 * computed from the row before it is written (its display head) would differ from what is read.
 * The content hash is the same either way (UTF-8 of a lone surrogate is U+FFFD).
 */
export function storedFormOf(document: IndexedDocument): Omit<StoredDocument, 'id'> {
  return {
    url: document.url,
    title: wellFormed(document.title),
    description: wellFormed(document.description),
    headings: wellFormed(document.headings ?? ''),
    body: wellFormed(document.body),
    template: wellFormed(document.template ?? ''),
    contentSize: document.contentSize ?? Buffer.byteLength(document.body),
    lastModified: Math.floor(document.lastModified ?? 0),
    doctype: document.doctype ?? 'html',
    // Only when declared: the content hash of a page without one stays what it was before
    // languages were stored, so an upgraded index does not take it for changed.
    ...(document.language !== undefined && document.language !== '' && { language: document.language }),
  };
}

/**
 * What tells a changed document from an unchanged one: a hash over every stored field, its date
 * left out when that is only the crawl's (`lastModifiedIsCrawlTime`): crawled again, a page of a
 * site that sends no Last-Modified is the same document while its text is.
 */
export function contentHashOf(document: Omit<StoredDocument, 'id'>, lastModifiedIsCrawlTime = false): Buffer {
  const hash = createHash('sha256');
  for (const [field, value] of Object.entries(document)) {
    if (field === 'lastModified' && lastModifiedIsCrawlTime) continue;
    hash.update(`${String(value)}\u0000`);
  }
  return hash.digest();
}
