/**
 * Run leases and checkpoints of a store shared by several processes (docs/design/scale-out.md, Run
 * leases). A worker holds each run it executes with a lease it renews; it copies the run's working
 * data (frontier, URL rows, links) into the store as checkpoints, and its page files into object
 * storage as pieces. When the lease ends (the worker died, or handed the run back on a drain)
 * another worker takes the run and resumes it from the last checkpoint: what was checkpointed is
 * kept once, what was not is fetched again. What a checkpoint holds is the per-run database's
 * (src/run-data/run-checkpoint.ts); the store keeps the lease and the copy.
 */

/** A worker's hold on a running run: the worker's name, and until when the hold lasts. */
export interface RunLease {
  /** Unique to one worker process (host, pid and a random part). */
  owner: string;
  untilMicros: number;
}
