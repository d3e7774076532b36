/**
 * Thread of the HitPagePool: reads a result page's hits from the index file over a read-only
 * connection of its own and cuts their texts and highlights (organic-docs.ts), the half of a
 * search request's work that does not need the index held in memory.
 */
import { parentPort } from 'node:worker_threads';
import { HitDocumentReader } from '../../store/sqlite/hit-documents.js';
import { QueryHighlighter } from '../highlight/query-highlighter.js';
import type { TemplateBlocks } from '../template-blocks.js';
import { HIT_THREAD_KEEPS, type HitPageReply, type HitPageRequest } from './hit-page-job.js';
import { organicDocsOf } from './organic-docs.js';

/** Connections by SearchIndex.openKey, in order of last use. */
const readers = new Map<string, HitDocumentReader>();
/** Template line sets by key, in the order they came (the pool mirrors it). */
const blockSets = new Map<number, TemplateBlocks>();

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

function blocksOf(request: HitPageRequest): TemplateBlocks {
  if (request.blocks !== undefined) {
    if (blockSets.size >= HIT_THREAD_KEEPS) blockSets.delete(blockSets.keys().next().value!);
    blockSets.set(request.blocksKey, request.blocks);
  }
  const blocks = blockSets.get(request.blocksKey);
  if (blocks === undefined) throw new Error(`template lines ${request.blocksKey} were never sent`);
  return blocks;
}

parentPort?.on('message', (request: HitPageRequest) => {
  let reply: HitPageReply;
  try {
    const blocks = blocksOf(request);
    const docs = organicDocsOf(request.hits, readerOf(request), new QueryHighlighter(request.terms), blocks);
    reply = { ok: true, docs };
  } catch (error) {
    reply = { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
