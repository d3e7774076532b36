/**
 * Worker thread of the AnalysisPool: extracts the text of a batch's HTML pages, analyzes the
 * fields of its documents and cuts the phrases of their titles and headings for suggest (see
 * document-fields.ts), the costliest steps of indexing (an HTML parse, Intl.Segmenter), off the
 * thread that writes the index and answers searches.
 */
import { parentPort } from 'node:worker_threads';
import type { WorkerReply } from './analysis-pool.js';
import { packPages } from './analyzed-pages-wire.js';
import { analyzeBatch, type PageToIndex } from './html-page.js';

parentPort?.on('message', (pages: PageToIndex[]) => {
  const { extracted, analyzed } = analyzeBatch(pages);
  const reply: WorkerReply = { packed: packPages(analyzed), extracted };
  parentPort?.postMessage(reply, [reply.packed.layout.buffer as ArrayBuffer]);
});
