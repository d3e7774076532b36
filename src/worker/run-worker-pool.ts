import { rm } from 'node:fs/promises';
import {
  type RunMessage,
  executionTimeoutSecondsOf,
  type RunEndReason,
  RunState,
  type RunStateId,
} from '../domain/index.js';
import type { LiveRunProgress } from './live-run-progress.js';
import path from 'node:path';
import type { ServiceLogger } from '../observability/service-logger.js';
import type { ArtifactStore } from '../blob/index.js';
import { endReasonOf } from './run-end-reason.js';
import type { RunDispatcher } from './run-dispatcher.js';
import { previousRunFilesOf } from './previous-run-files.js';
import type { SearchFeed } from '../search/index.js';
import { failureMessage, packagesOnOf, RunEnding } from './run-ending.js';
import type { CrawlRunStore, RunRecord } from '../store/index.js';
import type { Clock } from '../util/index.js';
import type { RunThreads } from './run-thread-runner.js';
import type { HeldRunControl, RunLeasing } from './run-leasing.js';
import { CheckpointMissingError } from '../run-data/index.js';

/** Told when a run starts (not when it resumes after a restart) and when it ends: webhooks. */
export interface RunLifecycleListener {
  started(run: RunRecord): Promise<unknown>;
  finished(run: RunRecord): Promise<unknown>;
}

export interface WorkerPoolDeps {
  runs: CrawlRunStore;
  artifacts: ArtifactStore;
  clock: Clock;
  /** Executes each run in a worker thread of its own (docs/design/crawl.md, Crawl threads). */
  threads: RunThreads;
  /** Folder of the working data of running runs (`<data>/work/<run id>`). */
  workRoot: string;
  concurrency: number;
  /** Runs one contract may have running at once (docs/reference/run-states.md, Waiting); undefined:
   * no cap.
   */
  maxRunningPerContract?: number;
  logger: ServiceLogger;
  /** How often the pool looks for pending runs besides being notified. */
  pollIntervalMs?: number;
  lifecycle?: RunLifecycleListener;
  searchFeed?: SearchFeed;
  /** Told every page's progress of the runs of this process (the console's live run page). */
  live?: LiveRunProgress;
  /**
   * With a store several processes share: runs are held with leases and checkpointed, so another
   * worker resumes a run this one leaves (docs/design/scale-out.md, Run leases).
   */
  leasing?: RunLeasing;
}

/** How long a shutdown lets pages in flight finish before aborting them. */
const SHUTDOWN_DRAIN_MS = 10_000;

const PROGRESS_WRITE_INTERVAL_MS = 1000;

/**
 * Executes queued runs inside `kumo serve`, at most `concurrency` at once. Runs left running by
 * a previous process are resumed first; a stop (shutdown) leaves runs running in the store so
 * the next start resumes them.
 */
export class RunWorkerPool implements RunDispatcher {
  private readonly active = new Map<number, { cancel: AbortController; done: Promise<void> }>();
  /** Shutdown, first step: runs stop starting pages and store the pages in flight. */
  private readonly shutdown = new AbortController();
  /** Shutdown, second step after SHUTDOWN_DRAIN_MS: fetches still in flight are aborted. */
  private readonly hardStop = new AbortController();
  private pollTimer: NodeJS.Timeout | undefined;
  /** Runs a previous process left running, read once at start and resumed before new ones. */
  private leftOver: RunRecord[] = [];
  /** The claim loop in progress, if any (see fill). */
  private filling: Promise<void> | undefined;
  private fillAgain = false;
  /**
   * Set once the runs to resume are known: a notification before that (a run queued while the
   * process starts) claims nothing, so a new run cannot take the slot of one to resume.
   */
  private started = false;

  private readonly ending: RunEnding;

  constructor(private readonly deps: WorkerPoolDeps) {
    this.ending = new RunEnding(deps);
  }

  async start(): Promise<void> {
    // With leases, the runs left running are those whose lease ended, taken one by one as any
    // worker may take them (claimUntilFull).
    this.leftOver = this.deps.leasing === undefined ? await this.deps.runs.listRunning() : [];
    this.started = true;
    this.deps.leasing?.start(() => this.notifyPending());
    this.pollTimer = setInterval(() => this.fill(), this.deps.pollIntervalMs ?? 1000);
    this.pollTimer.unref();
    this.fill();
  }

  notifyPending(): void {
    setImmediate(() => this.fill());
  }

  cancelRun(runId: number): void {
    this.active.get(runId)?.cancel.abort();
  }

  runEnded(runId: number): void {
    void this.notify('finished', runId);
  }

  /**
   * Stops claiming and drains running runs: pages in flight finish and are stored (at most
   * SHUTDOWN_DRAIN_MS, then they are aborted); the runs stay 2020 and resume at next start.
   */
  async stop(): Promise<void> {
    clearInterval(this.pollTimer);
    this.shutdown.abort();
    // A claim in progress ends without launching (claimUntilFull); then the runs are all known.
    await this.filling;
    const hardStop = setTimeout(() => this.hardStop.abort(), SHUTDOWN_DRAIN_MS);
    await Promise.allSettled([...this.active.values()].map((entry) => entry.done));
    clearTimeout(hardStop);
    await this.deps.leasing?.stop();
  }

  /**
   * Claims runs until the pool is full. Claims are asynchronous, so one claim loop runs at a
   * time (two would both see a free slot and take one run too many); a call meanwhile runs the
   * loop again once it ends.
   */
  private fill(): void {
    if (!this.started) return;
    if (this.filling !== undefined) {
      this.fillAgain = true;
      return;
    }
    this.filling = this.claimUntilFull()
      // A store that cannot answer now is asked again at the next poll.
      .catch((error: unknown) => this.deps.logger.error({ err: error }, 'claiming a run failed'))
      .finally(() => {
        this.filling = undefined;
        if (!this.fillAgain) return;
        this.fillAgain = false;
        this.fill();
      });
  }

  private async claimUntilFull(): Promise<void> {
    const { leasing } = this.deps;
    while (!this.shutdown.signal.aborted && this.active.size < this.deps.concurrency) {
      const resumed = this.leftOver.shift() ?? (await leasing?.takeAbandoned([...this.active.keys()]));
      if (resumed)
        this.deps.logger.info({ run_id: resumed.id }, 'resuming run left running by a stopped process');
      // Fair order and the contract cap are the store's (CrawlRunStore.claimNextPending). The runs
      // left running by the previous process are resumed first, so they are among the holders;
      // with leases every running run holds a slot, whichever worker executes it.
      const run =
        resumed ??
        (await this.deps.runs.claimNextPending(this.deps.clock.nowMicros(), {
          maxRunningPerContract: this.deps.maxRunningPerContract,
          slotHolderRunIds: leasing === undefined ? [...this.active.keys()] : undefined,
          lease: leasing?.lease(),
        }));
      if (!run) return;
      // Stopped while the claim was asked: the run stays running in the store and resumes at the
      // next start, like the runs the stop drains (with leases, another worker takes it at once).
      if (this.shutdown.signal.aborted) {
        await leasing?.giveBack(run.id);
        return;
      }
      if (!resumed) void this.notify('started', run.id);
      this.launch(run, resumed !== undefined);
    }
  }

  /** Executes the run; `resumed`: it ran before (left by a stopped process), not just claimed. */
  private launch(run: RunRecord, resumed: boolean): void {
    const cancel = new AbortController();
    const lost = new AbortController();
    if (run.isCancelRequest) cancel.abort();
    const done = this.execute(run, { cancel, lost }, resumed)
      .catch((error: unknown) => this.fail(run, error, lost.signal))
      // Nothing a run does may end the process: the other tenants' runs and requests go on.
      .catch((error: unknown) =>
        this.deps.logger.error({ err: error, run_id: run.id }, 'ending the run failed'),
      )
      .finally(() => {
        this.deps.live?.end(run.id);
        this.active.delete(run.id);
        this.fill();
      });
    this.active.set(run.id, { cancel, done });
  }

  private async execute(run: RunRecord, control: HeldRunControl, resumed: boolean): Promise<void> {
    const { deps } = this;
    const { cancel, lost } = control;
    const searchServiceId =
      run.serviceSettingId === null ? undefined : await deps.searchFeed?.searchServiceOf(run);
    const workFolder = path.join(deps.workRoot, String(run.id));
    const startMicros = run.startMicros ?? deps.clock.nowMicros();
    // With leases, the work folder is rebuilt from the run's checkpoints (a run another worker left).
    if (!(await this.restore(run, workFolder, control, resumed))) return;
    const signal = AbortSignal.any([cancel.signal, this.hardStop.signal, lost.signal]);
    const previous = await previousRunFilesOf(run, deps, signal);
    let lastWriteMs = 0;
    let progressWrite: Promise<void> | undefined;
    deps.logger.info(
      { run_id: run.id, request_id: run.requestId, seeds: run.setting.seed_urls.length },
      'run started',
    );
    const execution = await deps.threads.execute(
      {
        runId: run.id,
        setting: run.setting,
        // The index is built from the page files, so a run feeding search collects them whatever
        // crawl_object says; it reads sitemaps by default too.
        feedsSearch: searchServiceId !== undefined,
        workspace: { workFolder, artifactFolder: deps.artifacts.folderFor(run.id) },
        // Wall time since the run first started, across restarts (docs/reference/run-states.md,
        // Time limit).
        deadlineMicros: startMicros + executionTimeoutSecondsOf(run.setting) * 1_000_000,
        packagesOn: packagesOnOf(run),
        pageOutcomes: searchServiceId !== undefined,
        writeReport: true,
        ...(previous && { previous: previous.files }),
        ...(previous?.readBundle && { readPreviousBundle: previous.readBundle }),
      },
      {
        cancelSignal: signal,
        drainSignal: this.shutdown.signal,
        onProgress: (progress) => {
          deps.live?.report(run.id, progress);
          const nowMs = Date.now();
          // One write at a time: a slow store skips interim counts rather than queueing them.
          if (progressWrite !== undefined || nowMs - lastWriteMs < PROGRESS_WRITE_INTERVAL_MS) return;
          lastWriteMs = nowMs;
          progressWrite = this.recordProgress(run.id, progress, cancel)
            .catch((error: unknown) =>
              deps.logger.warn({ err: error, run_id: run.id }, 'recording run progress failed'),
            )
            .finally(() => {
              progressWrite = undefined;
            });
        },
      },
    );
    // The final counts are written after any interim ones.
    await progressWrite;
    await deps.leasing?.stopCheckpoints(run.id);
    if (lost.signal.aborted || !(await this.stillHeld(run.id))) {
      // Another worker holds the run now and resumes it from its checkpoints: nothing to record.
      await deps.leasing?.letGo(run.id);
      await rm(workFolder, { recursive: true, force: true });
      return;
    }
    // Drained, or aborted by the shutdown's hard stop rather than by a cancel: resume later.
    if (
      execution.outcome === 'interrupted' ||
      (execution.outcome === 'cancelled' && !cancel.signal.aborted)
    ) {
      await deps.runs.updateProgress(
        run.id,
        execution.progress.crawled,
        execution.progress.total,
        deps.clock.nowMicros(),
      );
      if (deps.leasing === undefined) {
        deps.logger.info({ run_id: run.id }, 'run interrupted by shutdown; it resumes at next start');
        return;
      }
      await deps.leasing.handBack(run.id);
      await rm(workFolder, { recursive: true, force: true }).catch(() => undefined);
      deps.logger.info({ run_id: run.id }, 'run handed back at shutdown; another worker resumes it');
      return;
    }
    await deps.runs.updateProgress(
      run.id,
      execution.progress.crawled,
      execution.progress.total,
      deps.clock.nowMicros(),
    );
    const ending = await this.ending.endingOf(run, execution, searchServiceId);
    // Feeding a large index may take long: the run must still be this worker's to be ended.
    if (lost.signal.aborted || !(await this.stillHeld(run.id))) {
      await deps.leasing?.letGo(run.id);
      deps.logger.warn(
        { run_id: run.id },
        'the run was lost while it was being ended; its new worker ends it',
      );
      return;
    }
    await this.finish(
      run.id,
      ending.state,
      ending.state === RunState.troubled ? [] : execution.artifacts.map((artifact) => artifact.name),
      ending.message,
      ending.state === RunState.troubled ? null : endReasonOf(execution.outcome),
    );
    // Announced before the working data is removed, which may take a while for a large run.
    void this.notify('finished', run.id);
    deps.logger.info(
      {
        run_id: run.id,
        state: ending.state,
        crawled: execution.progress.crawled,
        ...(ending.message.text !== '' && { message: ending.message.text }),
      },
      'run finished',
    );
    // A troubled run has no artifacts (docs/api.md, Downloads): the files packaged are removed.
    if (ending.state === RunState.troubled)
      await deps.artifacts
        .remove(run.id)
        .catch((error: unknown) =>
          deps.logger.warn(
            { err: error, run_id: run.id },
            'removing the artifacts of the troubled run failed',
          ),
        );
    // The run has ended: a failure now must not turn it into 2040 (see fail()).
    await Promise.all([rm(workFolder, { recursive: true, force: true }), deps.leasing?.ended(run.id)]).catch(
      (error: unknown) =>
        deps.logger.warn({ err: error, run_id: run.id }, 'removing the working data of the run failed'),
    );
  }

  /**
   * A run that threw (a store or disk error, the browser missing) ends 2040 with the reason as its
   * message, and its working data and partial artifacts are removed: a full disk gets its space
   * back. When even that cannot be recorded (the record store itself fails) the run stays 2020
   * and resumes at the next start; so does a run whose pages were aborted by a shutdown.
   */
  private async fail(run: RunRecord, error: unknown, lost: AbortSignal): Promise<void> {
    const { deps } = this;
    if (this.hardStop.signal.aborted || lost.aborted || !(await this.stillHeld(run.id))) {
      // The lease, if any, ends unrenewed and another worker (or the next start) resumes the run.
      await deps.leasing?.letGo(run.id);
      deps.logger.warn({ err: error, run_id: run.id }, 'run failed while stopping; it resumes later');
      return;
    }
    deps.logger.error({ err: error, run_id: run.id }, 'run failed');
    try {
      await this.finish(run.id, RunState.troubled, [], failureMessage(error));
    } catch (storeError) {
      // With leases, the lease ends unrenewed and the run is resumed once it has (here or elsewhere).
      await deps.leasing?.letGo(run.id);
      deps.logger.error(
        { err: storeError, run_id: run.id },
        'recording the failed run failed; it stays running and resumes later',
      );
      return;
    }
    void this.notify('finished', run.id);
    await Promise.all([
      rm(path.join(deps.workRoot, String(run.id)), { recursive: true, force: true }),
      deps.artifacts.remove(run.id),
      deps.leasing?.ended(run.id),
    ]).catch((cleanupError: unknown) =>
      deps.logger.warn({ err: cleanupError, run_id: run.id }, 'removing the data of the failed run failed'),
    );
  }

  /**
   * With leases: rebuilds the work folder from the run's checkpoints and starts checkpointing;
   * false when the checkpoints cannot be read now (the store or the bucket away), in which case
   * the run is let go and resumed once its lease has ended. A missing piece throws: the run
   * cannot be resumed, and ends 2040.
   */
  private async restore(
    run: RunRecord,
    workFolder: string,
    control: HeldRunControl,
    resumed: boolean,
  ): Promise<boolean> {
    const { leasing } = this.deps;
    if (leasing === undefined) return true;
    try {
      await leasing.hold(run, workFolder, control, !resumed);
      return true;
    } catch (error) {
      if (error instanceof CheckpointMissingError) throw error;
      this.deps.logger.error(
        { err: error, run_id: run.id },
        'reading the checkpoints of the run failed; it is resumed once its lease has ended',
      );
      await leasing.letGo(run.id);
      return false;
    }
  }

  /** Whether this worker may still record the run's end: with leases, it still holds the run. */
  private async stillHeld(runId: number): Promise<boolean> {
    const { leasing } = this.deps;
    if (leasing === undefined) return true;
    try {
      return await leasing.stillHeld(runId);
    } catch {
      // The store is away: the end could not be recorded either.
      return false;
    }
  }

  /** Tells the lifecycle listener; never fails (a failure is logged). */
  private async notify(event: keyof RunLifecycleListener, runId: number): Promise<void> {
    const listener = this.deps.lifecycle;
    if (listener === undefined) return;
    try {
      const run = await this.deps.runs.getRun(runId);
      if (run) await listener[event](run);
    } catch (error) {
      this.deps.logger.error({ err: error, run_id: runId }, `run ${event} listener failed`);
    }
  }

  /** Interim counts, and a cancel recorded by another process, which reaches this one through the store. */
  private async recordProgress(
    runId: number,
    progress: { crawled: number; total: number },
    cancel: AbortController,
  ): Promise<void> {
    await this.deps.runs.updateProgress(runId, progress.crawled, progress.total, this.deps.clock.nowMicros());
    if ((await this.deps.runs.getRun(runId))?.isCancelRequest) cancel.abort();
  }

  private async finish(
    runId: number,
    state: RunStateId,
    artifacts: Parameters<CrawlRunStore['finish']>[3],
    message: RunMessage,
    endReason: RunEndReason | null = null,
  ): Promise<void> {
    const now = this.deps.clock.nowMicros();
    await this.deps.runs.finish(runId, state, now, artifacts, message.text, message.parts, endReason);
  }
}
