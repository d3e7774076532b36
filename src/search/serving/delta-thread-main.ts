/**
 * The thread a generation's delta is written or applied on (delta-thread.ts): seconds of SQLite
 * reads or writes for a large change, which on the process's own thread would hold up every
 * search it serves meanwhile.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { applyGenerationDeltaToFile, writeGenerationDelta } from '../storage/generation-delta.js';
import type { DeltaTask } from './delta-thread.js';

const task = workerData as DeltaTask;
if (task.op === 'apply') applyGenerationDeltaToFile(task.indexFile, task.deltaFile);
else {
  // A connection of its own to the writer's file; the writer's waits, idle, while it publishes.
  const db = new Database(task.indexFile);
  try {
    db.pragma('busy_timeout = 5000');
    parentPort!.postMessage(writeGenerationDelta(db, task.deltaFile));
  } finally {
    db.close();
  }
}
