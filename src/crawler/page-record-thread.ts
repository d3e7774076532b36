/**
 * A crawl's page thread (page-recorder.ts): turns fetched pages into what the run stores, the
 * CPU-bound half of a crawl (HTML parsing, link resolution, hashing, gzip), so the run's own
 * thread keeps fetching and committing. Compression runs here too, synchronously: handing it on
 * to libuv's pool measured slower, every handoff a switch between threads on busy cores.
 */
import { parentPort } from 'node:worker_threads';
import { bundleMembersSync } from '../artifacts/index.js';
import { IdentityCache } from './identity-cache.js';
import { type PageRecordContext, recordPage } from './page-record.js';
import {
  type FromPageThread,
  type PageThreadReply,
  recordSettingsOf,
  type ToPageThread,
} from './page-record-job.js';
import { CrawlScope } from './scope.js';

let context: PageRecordContext | undefined;

function contextOf(message: Extract<ToPageThread, { type: 'start' }>): PageRecordContext {
  const settings = recordSettingsOf(message.settings);
  return {
    settings,
    scope: new CrawlScope(settings),
    knownIdentities: new IdentityCache(),
    timezone: message.timezone,
  };
}

parentPort?.on('message', (message: ToPageThread) => {
  if (message.type === 'start') {
    context = contextOf(message);
    return;
  }
  const reply = prepare(message);
  const transfer = reply.ok ? (reply.page.members?.map((member) => member.buffer as ArrayBuffer) ?? []) : [];
  const answer: FromPageThread = { type: 'answer', reply };
  parentPort?.postMessage(answer, transfer);
});

// Loading this code takes tens of milliseconds: pages fetched meanwhile are prepared on the
// run's thread, so the run's first pages, whose links feed all the rest, never wait for it.
const ready: FromPageThread = { type: 'ready' };
parentPort?.postMessage(ready);

function prepare(message: Extract<ToPageThread, { type: 'page' }>): PageThreadReply {
  try {
    if (context === undefined) throw new Error('a page came before the run settings');
    const { entry, fetchedUrl, result, rendering, crawlMicros } = message;
    // Buffers arrive as plain Uint8Arrays.
    if (result.kind === 'response' && result.body !== undefined) result.body = asBuffer(result.body);
    if (rendering?.kind === 'rendered' && rendering.page.screenshot !== undefined)
      rendering.page.screenshot = asBuffer(rendering.page.screenshot);
    const recorded = recordPage(entry, fetchedUrl, result, rendering, crawlMicros, context);
    for (const identity of recorded.discoveredIdentities) context.knownIdentities.add(identity);
    // Copied to memory of their own, so they can be handed over rather than copied again.
    const members =
      recorded.bundleFiles && bundleMembersSync(recorded.bundleFiles).map((member) => new Uint8Array(member));
    return { ok: true, page: { commit: recorded.commit, members } };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
