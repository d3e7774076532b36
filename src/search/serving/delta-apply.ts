import { Worker } from 'node:worker_threads';

/**
 * Applies a generation's delta to a local copy (not open elsewhere) on a thread of its own
 * (delta-apply-thread.ts), in one transaction there; settles when the thread has ended.
 */
export function applyDeltaOffThread(file: string, delta: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const thread = new Worker(new URL('./delta-apply-thread.js', import.meta.url), {
      workerData: { file, delta },
    });
    let failure: unknown;
    thread.once('error', (error) => (failure = error));
    thread.once('exit', (code) => {
      if (failure !== undefined) reject(failure instanceof Error ? failure : new Error(String(failure)));
      else if (code !== 0) reject(new Error(`applying the delta ${delta} ended with code ${code}`));
      else resolve();
    });
  });
}
