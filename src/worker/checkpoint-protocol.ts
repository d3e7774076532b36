/**
 * Messages of the checkpoint thread (checkpoint-thread.ts, docs/design/scale-out.md, Run leases):
 * reading a run store, storing its piece and writing the checkpoint happen there, so the API's
 * event loop never waits for a large checkpoint.
 */
import type { BlobLocation } from '../config/index.js';
import type { CheckpointMarks } from '../run-data/index.js';

/** What the checkpoint thread is started with. */
export interface CheckpointThreadData {
  databaseUrl: string;
  /** Where pieces go: the bucket, or (undefined) the local folder. */
  blobUrl: BlobLocation | undefined;
  piecesRoot: string;
}

/** Rebuild a run's work folder from its checkpoints (run-data-restore.ts). */
export interface RestoreRequest {
  type: 'restore';
  id: number;
  runId: number;
  files: { folder: string; store: string; spool: string };
}

export type RestoreAnswer =
  | { id: number; outcome: 'restored'; marks: CheckpointMarks }
  /** `missing`: a piece is not in storage, so the run cannot be resumed at all. */
  | { id: number; outcome: 'failed'; message: string; missing: boolean };

export interface CheckpointRequest {
  type: 'save';
  id: number;
  runId: number;
  owner: string;
  files: { store: string; spool: string; piece: string };
  pieceName: string;
  marks: CheckpointMarks;
}

export type CheckpointAnswer =
  /** Stored (or nothing new to store); the next checkpoint reads from `marks`. */
  | { id: number; outcome: 'saved'; marks: CheckpointMarks }
  /** The run's lease is no longer this worker's: nothing was written. */
  | { id: number; outcome: 'lost' }
  | { id: number; outcome: 'failed'; message: string };
