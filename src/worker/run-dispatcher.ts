/** What the services that queue and cancel runs need of the worker pool (RunWorkerPool implements it). */
export interface RunDispatcher {
  /** A run was queued: claim it when a worker is free. */
  notifyPending(): void;
  /** Stops a run this process is executing; it ends as 2050. */
  cancelRun(runId: number): void;
  /** A run ended without being executed (cancelled while pending): announce its end (webhooks). */
  runEnded(runId: number): void;
}
