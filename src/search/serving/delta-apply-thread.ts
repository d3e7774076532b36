/**
 * The thread a search node applies a generation's delta on (delta-apply.ts): seconds of SQLite
 * writes for a large change, which on the node's own thread would hold up every search meanwhile.
 */
import { workerData } from 'node:worker_threads';
import { applyGenerationDeltaToFile } from '../storage/generation-delta.js';

const { file, delta } = workerData as { file: string; delta: string };
applyGenerationDeltaToFile(file, delta);
