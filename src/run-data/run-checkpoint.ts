import type { LinkRow, UrlRow } from './run-data.js';

/**
 * What a run's working data looks like when copied into a shared store as a checkpoint
 * (docs/design/scale-out.md, Run leases): its frontier entries, URL rows and links since the
 * previous checkpoint, and where each row's page files are among the pieces in object storage.
 */

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
