import { createHash } from 'node:crypto';
import type { StoredDocument } from '../store/sqlite/search-index-store.js';
import type { IndexedDocument } from './indexed-document.js';

/** The row form of a document to index (defaults filled in). */
export function storedFormOf(document: IndexedDocument): Omit<StoredDocument, 'id'> {
  return {
    url: document.url,
    title: document.title,
    description: document.description,
    headings: document.headings ?? '',
    body: document.body,
    template: document.template ?? '',
    contentSize: document.contentSize ?? Buffer.byteLength(document.body),
    lastModified: Math.floor(document.lastModified ?? 0),
    doctype: document.doctype ?? 'html',
  };
}

/** What tells a changed document from an unchanged one: a hash over every stored field. */
export function contentHashOf(document: Omit<StoredDocument, 'id'>): Buffer {
  const hash = createHash('sha256');
  for (const value of Object.values(document)) hash.update(`${String(value)}\u0000`);
  return hash.digest();
}
