import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { RunPieceStore } from '../blob/run-pieces.js';
import type { RunLeaseStore } from '../store/service-store.js';
import { type CheckpointMarks, readCheckpoint } from '../store/sqlite/run-checkpoint-reader.js';

export interface RunCheckpointerOptions {
  runId: number;
  owner: string;
  /** The owner as it may stand in an object name. */
  pieceTag: string;
  files: { folder: string; store: string; spool: string };
  /** Where the run's checkpoints stand (restored, or nothing yet). */
  marks: CheckpointMarks;
  leases: RunLeaseStore;
  pieces: RunPieceStore;
  intervalMs: number;
  logger: FastifyBaseLogger;
  /** The store refused a checkpoint: another worker holds the run now. */
  onLost(): void;
}

/**
 * Copies what one running run did into the shared store every interval (docs/architecture.md, Run
 * leases): the page files first, as a piece in object storage, then the entries, rows and links in
 * one transaction that checks the lease. A checkpoint that fails is read again whole at the next
 * interval from the same marks (rows already stored are kept as they were), so nothing is lost
 * and nothing is stored twice.
 */
export class RunCheckpointer {
  private marks: CheckpointMarks;
  private pieceCount = 0;
  private readonly timer: NodeJS.Timeout;
  private saving: Promise<boolean> | undefined;
  private stopped = false;

  constructor(private readonly options: RunCheckpointerOptions) {
    this.marks = options.marks;
    this.timer = setInterval(() => {
      void this.saveNow();
    }, options.intervalMs);
    this.timer.unref();
  }

  /**
   * Checkpoints now (after the checkpoint in progress, if any); false when the run is lost to
   * this worker or the checkpoint failed.
   */
  async saveNow(): Promise<boolean> {
    while (this.saving !== undefined) await this.saving;
    this.saving = this.save().finally(() => {
      this.saving = undefined;
    });
    return this.saving;
  }

  /** No checkpoint after the one in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.saving;
  }

  private async save(): Promise<boolean> {
    const { options } = this;
    const pieceName = `${options.pieceTag}-${++this.pieceCount}`;
    const pieceFile = path.join(options.files.folder, `${pieceName}.piece`);
    try {
      const read = readCheckpoint({ ...options.files, piece: pieceFile }, pieceName, this.marks);
      const { entries, rows, links } = read.checkpoint;
      if (entries.length === 0 && rows.length === 0 && links.length === 0) return true;
      if (read.pieceBytes > 0) await options.pieces.save(options.runId, pieceName, pieceFile);
      if (!(await options.leases.saveCheckpoint(options.owner, options.runId, read.checkpoint))) {
        options.logger.warn(
          { run_id: options.runId },
          'the run lease was lost; another worker resumes the run',
        );
        options.onLost();
        return false;
      }
      this.marks = read.marks;
      return true;
    } catch (error) {
      if (!this.stopped)
        options.logger.warn({ err: error, run_id: options.runId }, 'checkpointing the run failed');
      return false;
    } finally {
      await rm(pieceFile, { force: true });
    }
  }
}
