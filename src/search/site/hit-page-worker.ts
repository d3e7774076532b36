/**
 * Thread of the HitPagePool: reads a result page's hits from the index file over a read-only
 * connection of its own and cuts their texts and highlights (organic-docs.ts), the half of a
 * search request's work that does not need the index held in memory.
 */
import { parentPort } from 'node:worker_threads';
import { HitDocumentReader } from '../storage/hit-documents.js';
import { QueryHighlighter } from '../highlight/query-highlighter.js';
import type { HitTemplates } from '../template-blocks.js';
import { HIT_THREAD_KEEPS, type HitPageReply, type HitPageRequest } from './hit-page-job.js';
import { organicDocsOf } from './organic-docs.js';

/** Connections by SearchIndex.openKey, in order of last use. */
const readers = new Map<string, HitDocumentReader>();
/** Template line sets by key, in the order they came (the pool mirrors it). */
const templateSets = new Map<number, HitTemplates>();

function readerOf(request: HitPageRequest): HitDocumentReader {
  let reader = readers.get(request.indexKey);
  if (reader === undefined) {
    reader = new HitDocumentReader(request.file);
    if (readers.size >= HIT_THREAD_KEEPS) {
      const [oldestKey, oldest] = readers.entries().next().value!;
      readers.delete(oldestKey);
      oldest.close();
    }
  } else {
    readers.delete(request.indexKey);
  }
  readers.set(request.indexKey, reader);
  return reader;
}

function templatesOf(request: HitPageRequest): HitTemplates {
  if (request.templates !== undefined) {
    if (templateSets.size >= HIT_THREAD_KEEPS) templateSets.delete(templateSets.keys().next().value!);
    templateSets.set(request.templatesKey, request.templates);
  }
  const templates = templateSets.get(request.templatesKey);
  if (templates === undefined) throw new Error(`template lines ${request.templatesKey} were never sent`);
  return templates;
}

parentPort?.on('message', (request: HitPageRequest) => {
  let reply: HitPageReply;
  try {
    const templates = templatesOf(request);
    const docs = organicDocsOf(
      request.hits,
      readerOf(request),
      new QueryHighlighter(request.terms),
      templates,
    );
    reply = { ok: true, docs };
  } catch (error) {
    reply = { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
