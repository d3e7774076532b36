import type { LinkRow, UrlRow } from './run-data.js';

/**
 * Run leases and checkpoints of a store shared by several processes (docs/design/scale-out.md, Run
 * leases). A worker holds each run it executes with a lease it renews; it copies the run's working
 * data (frontier, URL rows, links) into the store as checkpoints, and its page files into object
 * storage as pieces. When the lease ends (the worker died, or handed the run back on a drain)
 * another worker takes the run and resumes it from the last checkpoint: what was checkpointed is
 * kept once, what was not is fetched again.
 */

/** A worker's hold on a running run: the worker's name, and until when the hold lasts. */
export interface RunLease {
  /** Unique to one worker process (host, pid and a random part). */
  owner: string;
  untilMicros: number;
}

/** A piece a checkpointed row names is not in storage: the run cannot be resumed. */
export class CheckpointMissingError extends Error {
  override name = 'CheckpointMissingError';
}

/** A frontier entry as checkpointed, with its state: 0 queued, 1 fetched, 2 skipped. */
export interface CheckpointEntry {
  seq: number;
  fingerprint: Uint8Array;
  url: string;
  depth: number;
  referrer: string | null;
  state: number;
}

/** A URL row as checkpointed: its id in the run, and where its page files are among the pieces. */
export interface CheckpointRow extends UrlRow {
  id: number;
  depth: number | null;
  /** The piece holding the row's page files; null when the row has none. */
  piece: string | null;
  pieceOffset: number | null;
  objectBytes: number | null;
}

export interface CheckpointLink extends LinkRow {
  id: number;
}

/** What a run did since its previous checkpoint. */
export interface RunCheckpoint {
  /** New frontier entries, and older ones whose state changed. */
  entries: CheckpointEntry[];
  rows: CheckpointRow[];
  links: CheckpointLink[];
}
