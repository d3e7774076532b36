/** What the services that queue and cancel runs need of the worker pool (RunWorkerPool implements it). */
export interface RunDispatcher {
  /** A run was queued: claim it when a worker is free. */
  notifyPending(): void;
  /** Stops a run this process is executing; it ends as 2050. */
  cancelRun(runId: number): void;
  /** A run ended without being executed (cancelled while pending): announce its end (webhooks). */
  runEnded(runId: number): void;
}

/**
 * The dispatcher of a process without the worker role, and of `kumo admin`: nothing to tell, the
 * workers claim pending runs and see cancel requests when they poll the store (about every second);
 * notifying is only an in-process shortcut.
 */
export const STORE_POLLED: RunDispatcher = {
  notifyPending: () => {},
  cancelRun: () => {},
  runEnded: () => {},
};
