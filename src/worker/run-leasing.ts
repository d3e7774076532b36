import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import type { ServiceLogger } from '../observability/service-logger.js';
import type { FileGroupStore } from '../blob/index.js';
import type { CheckpointThreadHost } from './checkpoint-thread-host.js';
import type { RunLease, RunLeaseStore, RunRecord } from '../store/index.js';
import { mkdir, rm } from 'node:fs/promises';
import { CheckpointMissingError, NO_MARKS, SqliteRunDataStore } from '../run-data/index.js';
import { PRIVATE_FOLDER_MODE, type Clock } from '../util/index.js';
import type { RunLeaseHealth } from '../observability/index.js';
import { RunCheckpointer } from './run-checkpointer.js';
import { RUN_SPOOL_FILE, RUN_STORE_FILE } from './work-folder-progress.js';

/** A name unique to this worker process (host, pid and a random part), for its leases and tenures. */
export function newWorkerName(): string {
  return `${hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`;
}

export interface RunLeasingDeps {
  /** This process's worker name (newWorkerName). */
  owner: string;
  leases: RunLeaseStore;
  pieces: FileGroupStore;
  /** Writes the checkpoints, off the thread answering the API. */
  checkpoints: CheckpointThreadHost;
  clock: Clock;
  logger: ServiceLogger;
  /** How long a hold lasts unrenewed (KUMO_RUN_LEASE_SECONDS). */
  leaseMs: number;
  /** How often each run is checkpointed (KUMO_CHECKPOINT_SECONDS). */
  checkpointMs: number;
  /** Told of each checkpoint and each run taken over (the service's metrics). */
  observer?: LeasingObserver;
}

export interface LeasingObserver {
  checkpointEnded(outcome: 'saved' | 'failed' | 'lost', seconds: number): void;
  runTakenOver(): void;
}

/** What the leasing may do to a run it holds: cancel it (asked elsewhere), or stop it (lost). */
export interface HeldRunControl {
  cancel: AbortController;
  /** Aborted when the lease is lost: the run stops at once and is left to its new worker. */
  lost: AbortController;
}

/** Renewals at most this far apart: a cancel whose notification was missed reaches the run this fast. */
const MAX_HEARTBEAT_MS = 2000;

/**
 * The runs this worker holds in a store several processes share (docs/design/scale-out.md, Run
 * leases): it takes abandoned runs and leases new ones, renews every hold in one statement a
 * heartbeat (which also brings the cancels asked on other processes), checkpoints each run while
 * it executes, and rebuilds a run's working data from its checkpoints when it takes one.
 */
export class RunLeasing {
  /** Unique to this process, so its leases and pieces are told from any other worker's. */
  readonly owner: string;
  private readonly pieceTag: string;
  private readonly held = new Map<number, { control: HeldRunControl; checkpointer?: RunCheckpointer }>();
  private heartbeatTimer: NodeJS.Timeout | undefined;
  /** When the leases were last renewed (monotonic ms), for the health check. */
  private renewedAtMs: number | undefined;
  private beating: Promise<void> | undefined;
  private listening: Promise<{ close(): Promise<void> } | undefined> | undefined;
  private beatAgain = false;
  private stopped = false;

  constructor(private readonly deps: RunLeasingDeps) {
    this.owner = deps.owner;
    this.pieceTag = deps.owner.replace(/[^A-Za-z0-9.-]/g, '_');
  }

  /** The health check's view of the leases (observability/health.ts, runLeaseProblem). */
  health(): RunLeaseHealth {
    const held = this.held.size;
    // Nothing held, or held since less than a beat: measured from the moment it was first held.
    const since = this.renewedAtMs === undefined ? undefined : performance.now() - this.renewedAtMs;
    return { held, sinceRenewedMs: since, leaseMs: this.deps.leaseMs };
  }

  /** A lease from now, for a run claimed or taken over. */
  lease(): RunLease {
    return { owner: this.owner, untilMicros: this.deps.clock.nowMicros() + this.deps.leaseMs * 1000 };
  }

  /**
   * Starts renewing the leases and listens for the runs queued and the cancels asked anywhere in
   * the cluster: `pending` is called for each queued run (the pool claims at once rather than at
   * its next poll), a cancel of a run held here reaches it at once rather than at the next beat.
   * Polling stays the fallback: a listener that cannot connect is logged, nothing more.
   */
  start(pending: () => void): void {
    // Started now rather than with the first run, which would wait for it.
    this.deps.checkpoints.warm();
    this.listening = this.deps.leases
      .listen(
        {
          pending: () => {
            if (!this.stopped) pending();
          },
          cancelAsked: (runId) => {
            if (this.held.has(runId)) this.beatNow(true);
          },
        },
        // Reconnected: what was told meanwhile is looked at now.
        () => {
          if (this.stopped) return;
          pending();
          this.beatNow(true);
        },
      )
      .catch((error: unknown) => {
        this.deps.logger.warn({ err: error }, 'listening for queued runs and cancels failed; polling only');
        return undefined;
      });
    const interval = Math.min(MAX_HEARTBEAT_MS, this.deps.leaseMs / 3);
    this.heartbeatTimer = setInterval(() => this.beatNow(), interval);
    this.heartbeatTimer.unref();
  }

  /**
   * Renews now (and so brings the cancels asked). One renewal at a time: a timed beat during one is
   * skipped (a slow store), a notified one runs again after it, since the renewal in progress may
   * have read the run before the cancel committed.
   */
  private beatNow(notified = false): void {
    if (this.stopped) return;
    if (this.beating !== undefined) {
      if (notified) this.beatAgain = true;
      return;
    }
    this.beating = this.heartbeat().finally(() => {
      this.beating = undefined;
      if (!this.beatAgain) return;
      this.beatAgain = false;
      this.beatNow();
    });
  }

  /**
   * A running run whose worker died or handed it back, now leased to this one. A run this
   * process still executes is never taken (its own lease lapsed while the store was away: the
   * next heartbeat renews it again, or finds it lost); one it let go may be.
   */
  async takeAbandoned(executing: readonly number[]): Promise<RunRecord | undefined> {
    const run = await this.deps.leases.takeAbandoned(this.lease(), this.deps.clock.nowMicros(), executing);
    if (run !== undefined) this.deps.observer?.runTakenOver();
    return run;
  }

  /** Whether this process still holds the run: asked before its end is recorded. */
  async stillHeld(runId: number): Promise<boolean> {
    const renewed = await this.deps.leases.renew(this.owner, [runId], this.lease().untilMicros);
    return renewed.has(runId);
  }

  /**
   * Rebuilds the run's working data in `workFolder` from its checkpoints (a run taken over) or
   * starts it empty (`fresh`: a run just claimed from the queue), and starts checkpointing it
   * while it executes.
   */
  async hold(run: RunRecord, workFolder: string, control: HeldRunControl, fresh: boolean): Promise<void> {
    this.held.set(run.id, { control });
    const files = {
      folder: workFolder,
      store: path.join(workFolder, RUN_STORE_FILE),
      spool: path.join(workFolder, RUN_SPOOL_FILE),
    };
    let marks = NO_MARKS;
    if (fresh) {
      // A run just claimed from the queue has no checkpoints: an empty run store, here and now.
      await rm(workFolder, { recursive: true, force: true });
      await mkdir(workFolder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
      new SqliteRunDataStore(files.store).close();
    } else {
      const restored = await this.deps.checkpoints.restore({ runId: run.id, files });
      if (restored.outcome === 'failed')
        throw restored.missing ? new CheckpointMissingError(restored.message) : new Error(restored.message);
      marks = restored.marks;
    }
    const entry = this.held.get(run.id);
    if (entry === undefined) return;
    entry.checkpointer = new RunCheckpointer({
      runId: run.id,
      owner: this.owner,
      pieceTag: this.pieceTag,
      files,
      marks,
      save: async (request) => {
        const started = performance.now();
        const answer = await this.deps.checkpoints.save(request);
        this.deps.observer?.checkpointEnded(answer.outcome, (performance.now() - started) / 1000);
        return answer;
      },
      intervalMs: this.deps.checkpointMs,
      logger: this.deps.logger,
      onLost: () => control.lost.abort(),
    });
  }

  /** The run's execution returned: checkpointing stops (after the one in progress). */
  async stopCheckpoints(runId: number): Promise<void> {
    await this.held.get(runId)?.checkpointer?.stop();
  }

  /**
   * Gives a drained run back: what it did since the last checkpoint is checkpointed, and the
   * lease ends now, so another worker resumes it at once.
   */
  async handBack(runId: number): Promise<void> {
    // Still renewed while the last checkpoint is written.
    const checkpointer = this.held.get(runId)?.checkpointer;
    try {
      if (checkpointer !== undefined && !(await checkpointer.saveNow())) return;
      await this.deps.leases.release(this.owner, runId);
    } catch (error) {
      this.deps.logger.warn(
        { err: error, run_id: runId },
        'handing the run back failed; its lease ends unrenewed',
      );
    } finally {
      this.held.delete(runId);
    }
  }

  /** Gives back a run taken but not started (the process began stopping meanwhile). */
  async giveBack(runId: number): Promise<void> {
    await this.deps.leases
      .release(this.owner, runId)
      .catch((error: unknown) =>
        this.deps.logger.warn(
          { err: error, run_id: runId },
          'handing the run back failed; its lease ends unrenewed',
        ),
      );
  }

  /** The run ended (its end is recorded): its checkpoints and pieces go. */
  async ended(runId: number): Promise<void> {
    await this.letGo(runId);
    await Promise.all([this.deps.leases.dropCheckpoints(runId), this.deps.pieces.removeAll(runId)]);
  }

  /**
   * The run stopped without an end to record (its lease was lost, its end could not be
   * recorded, or the process is stopping): no more renewals nor checkpoints.
   */
  async letGo(runId: number): Promise<void> {
    const entry = this.held.get(runId);
    this.held.delete(runId);
    await entry?.checkpointer?.stop();
  }

  async stop(): Promise<void> {
    // The listener may outlive its close (the client listens again after a reconnect): it does
    // nothing from now on.
    this.stopped = true;
    clearInterval(this.heartbeatTimer);
    await (await this.listening)?.close().catch(() => undefined);
    await this.beating;
    await this.deps.checkpoints.close();
  }

  /** Renews every hold; a run no longer held stops, and a cancel asked elsewhere reaches its run. */
  private async heartbeat(): Promise<void> {
    const runIds = [...this.held.keys()];
    if (runIds.length === 0) {
      // Nothing to renew counts as renewed: a run held next is judged from its own first beat.
      this.renewedAtMs = performance.now();
      return;
    }
    let renewed: Map<number, boolean>;
    try {
      renewed = await this.deps.leases.renew(this.owner, runIds, this.lease().untilMicros);
      this.renewedAtMs = performance.now();
    } catch (error) {
      // The lease has its whole length to be renewed at a later beat.
      this.deps.logger.warn({ err: error }, 'renewing the run leases failed');
      return;
    }
    for (const runId of runIds) {
      const entry = this.held.get(runId);
      if (entry === undefined) continue;
      const cancelAsked = renewed.get(runId);
      if (cancelAsked === undefined) {
        this.deps.logger.warn({ run_id: runId }, 'the run lease was lost; another worker resumes the run');
        entry.control.lost.abort();
      } else if (cancelAsked) entry.control.cancel.abort();
    }
  }
}
