import { parentPort } from 'node:worker_threads';
import type { ExtractionReply, ExtractionRequest } from './extraction-sandbox.js';
import { extractByKind } from './extract-by-kind.js';
import { TextSink, collapsedText } from './text-sink.js';

/** Longest title kept: metadata titles are short, anything longer is junk. */
const MAX_TITLE_CHARS = 1_000;

async function extract(request: ExtractionRequest): Promise<ExtractionReply> {
  try {
    const body = new TextSink(request.maxChars, request.stopReadingAt);
    const title = await extractByKind(request.bytes, request.kind, body);
    return { ok: true, title: collapsedText(title, MAX_TITLE_CHARS), body: body.toString() };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

const port = parentPort;
if (!port) throw new Error('the extraction worker runs only in a worker thread');
port.on('message', (request: ExtractionRequest) => {
  void extract(request).then((reply) => port.postMessage(reply));
});
