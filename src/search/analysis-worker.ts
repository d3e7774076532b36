/**
 * Worker thread of the AnalysisPool: analyzes the fields of a batch of documents and cuts
 * the phrases of their titles and headings for suggest (see document-fields.ts), the costliest step of indexing (Intl.Segmenter), off the thread that
 * writes the index and answers searches.
 */
import { parentPort } from 'node:worker_threads';
import { packPages } from './analyzed-pages-wire.js';
import { analyzePage } from './document-fields.js';
import type { IndexedDocument } from './indexed-document.js';

parentPort?.on('message', (documents: IndexedDocument[]) => {
  const packed = packPages(documents.map(analyzePage));
  parentPort?.postMessage(packed, [packed.layout.buffer as ArrayBuffer]);
});
