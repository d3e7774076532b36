import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { ServiceLogger } from '../observability/service-logger.js';
import type { CheckpointMarks } from '../run-data/index.js';
import type { CheckpointAnswer, CheckpointRequest } from './checkpoint-protocol.js';

export interface RunCheckpointerOptions {
  runId: number;
  owner: string;
  /** The owner as it may stand in an object name. */
  pieceTag: string;
  files: { folder: string; store: string; spool: string };
  /** Where the run's checkpoints stand (restored, or nothing yet). */
  marks: CheckpointMarks;
  /** Writes one checkpoint (the checkpoint thread). */
  save(request: Omit<CheckpointRequest, 'id' | 'type'>): Promise<CheckpointAnswer>;
  intervalMs: number;
  logger: ServiceLogger;
  /** The store refused a checkpoint: another worker holds the run now. */
  onLost(): void;
}

/**
 * Checkpoints one running run every interval (docs/design/scale-out.md, Run leases), one checkpoint
 * at a time, through the checkpoint thread: the page files first, as a piece in object storage,
 * then the entries, rows and links in one transaction that checks the lease. A checkpoint that
 * fails is read again whole at the next interval from the same marks (rows already stored are kept
 * as they were), so nothing is lost and nothing is stored twice.
 */
export class RunCheckpointer {
  private marks: CheckpointMarks;
  private pieceCount = 0;
  /** Unique to this hold: a piece name is never used twice, even by a process holding the run again. */
  private readonly holdTag = randomBytes(4).toString('hex');
  private readonly timer: NodeJS.Timeout;
  private saving: Promise<boolean> | undefined;

  constructor(private readonly options: RunCheckpointerOptions) {
    this.marks = options.marks;
    this.timer = setInterval(() => {
      // A checkpoint slower than the interval: the next one starts when it ends, not queued behind.
      if (this.saving === undefined) void this.saveNow();
    }, options.intervalMs);
    this.timer.unref();
  }

  /**
   * Checkpoints now (after the checkpoint in progress, if any); false when the run is lost to
   * this worker or the checkpoint failed. The last one of a drain comes after stop().
   */
  async saveNow(): Promise<boolean> {
    while (this.saving !== undefined) await this.saving;
    this.saving = this.save().finally(() => {
      this.saving = undefined;
    });
    return this.saving;
  }

  /** No checkpoint starts on the timer any more; the one in progress ends first. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.saving;
  }

  private async save(): Promise<boolean> {
    const { options } = this;
    const pieceName = `${options.pieceTag}-${this.holdTag}-${++this.pieceCount}`;
    const answer = await options.save({
      runId: options.runId,
      owner: options.owner,
      files: { ...options.files, piece: path.join(options.files.folder, `${pieceName}.piece`) },
      pieceName,
      marks: this.marks,
    });
    switch (answer.outcome) {
      case 'saved':
        this.marks = answer.marks;
        return true;
      case 'lost':
        options.logger.warn(
          { run_id: options.runId },
          'the run lease was lost; another worker resumes the run',
        );
        options.onLost();
        return false;
      case 'failed':
        options.logger.warn(
          { run_id: options.runId, reason: answer.message },
          'checkpointing the run failed',
        );
        return false;
    }
  }
}
