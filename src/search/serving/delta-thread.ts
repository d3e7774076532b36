import { Worker } from 'node:worker_threads';
import type { DeltaFigures } from '../storage/generation-delta.js';

export type DeltaTask =
  /** Applies `deltaFile` to a local copy `indexFile` (open nowhere else), in one transaction. */
  | { op: 'apply'; indexFile: string; deltaFile: string }
  /** Writes the changes recorded in a writer's `indexFile` to `deltaFile` (generation-delta.ts). */
  | { op: 'write'; indexFile: string; deltaFile: string };

/**
 * Applies a generation's delta to a local copy on a thread of its own (delta-thread-main.ts);
 * settles when the thread has ended.
 */
export async function applyDeltaOffThread(indexFile: string, deltaFile: string): Promise<void> {
  await runDeltaThread({ op: 'apply', indexFile, deltaFile });
}

/** Writes the recorded changes of a writer's index file as a delta, on a thread of its own. */
export async function writeDeltaOffThread(indexFile: string, deltaFile: string): Promise<DeltaFigures> {
  const figures = await runDeltaThread({ op: 'write', indexFile, deltaFile });
  if (figures === undefined) throw new Error(`writing the delta ${deltaFile} answered nothing`);
  return figures;
}

function runDeltaThread(task: DeltaTask): Promise<DeltaFigures | undefined> {
  return new Promise((resolve, reject) => {
    const thread = new Worker(new URL('./delta-thread-main.js', import.meta.url), { workerData: task });
    let failure: unknown;
    let figures: DeltaFigures | undefined;
    thread.once('message', (answer: DeltaFigures) => (figures = answer));
    thread.once('error', (error) => (failure = error));
    thread.once('exit', (code) => {
      if (failure !== undefined) reject(failure instanceof Error ? failure : new Error(String(failure)));
      else if (code !== 0)
        reject(new Error(`the delta thread (${task.op} ${task.deltaFile}) ended with code ${code}`));
      else resolve(figures);
    });
  });
}
