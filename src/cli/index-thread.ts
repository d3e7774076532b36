/**
 * The thread `kumo index` writes the index in (index-action.ts): its heap is bounded by the
 * indexing budget, so V8 collects as it goes instead of growing the process to many times what
 * it holds (docs/design/search-engine.md, Memory of indexing).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { indexBundle, type IndexBundleJob } from './index-bundle.js';
import { UsageError } from './usage-error.js';

/** What the thread answers: the command's exit code, or a usage mistake to report as such. */
export type IndexThreadReply = { exitCode: number } | { usageError: string };

try {
  const exitCode = await indexBundle(workerData as IndexBundleJob);
  parentPort?.postMessage({ exitCode } satisfies IndexThreadReply);
} catch (error) {
  // Anything else reaches the command as the thread's error, with its message and stack.
  if (!(error instanceof UsageError)) throw error;
  parentPort?.postMessage({ usageError: error.message } satisfies IndexThreadReply);
}
