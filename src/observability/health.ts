/** What the scheduler says of itself (Scheduler.state()). */
export interface SchedulerHealth {
  running: boolean;
  /** When it last looked at the schedules successfully (epoch microseconds, service clock). */
  lastTickMicros: number | undefined;
  /** How long ago that was, measured on a monotonic clock. */
  sinceLastTickMs: number | undefined;
  /** How long ago it started, on the same clock. */
  sinceStartMs: number | undefined;
  /** How often it looks. */
  intervalMs: number;
}

/** Health sources of the check besides the store and the browser, wired by the service. */
export interface HealthSources {
  /** Why runs' files cannot be stored (the artifact folder, or the bucket), or undefined when they can. */
  blobStoreProblem(): Promise<string | undefined>;
  /** The scheduler's state; undefined before it exists. Absent on a process without a scheduler (a search node). */
  scheduler?(): SchedulerHealth | undefined;
  /** With a shared database: how the worker's run leases are renewed (docs/design/scale-out.md, Run
   * leases).
   */
  runLeases?(): RunLeaseHealth;
  /** On a search node: the published generations it follows (docs/design/scale-out.md, Serving). */
  searchGenerations?(): FollowedGenerations | undefined;
}

/** What a search node says of the generations it follows (SearchServices.followedGenerations()). */
export interface FollowedGenerations {
  /** Services served from an older generation than the newest, because taking that in failed. */
  behind: number;
  /** Why, for one of them. */
  problem?: string;
  /** Bytes fetched from the object storage since the process started. */
  fetchedBytes: number;
}

/** What the worker says of its run leases (RunLeasing.health()). */
export interface RunLeaseHealth {
  /** Runs this process holds. */
  held: number;
  /** Milliseconds since the leases were last renewed, on a monotonic clock; undefined: never. */
  sinceRenewedMs: number | undefined;
  /** How long a lease lasts unrenewed. */
  leaseMs: number;
}

/**
 * Why the run leases are unhealthy, or undefined when they are fine: a process that holds runs
 * and has not renewed their leases for half their length is about to lose them to another worker
 * (the database is away, or the process too busy to beat).
 */
export function runLeaseProblem(state: RunLeaseHealth): string | undefined {
  if (state.held === 0 || state.sinceRenewedMs === undefined) return undefined;
  if (state.sinceRenewedMs <= state.leaseMs / 2) return undefined;
  return `the leases of ${state.held} running run(s) were last renewed ${Math.round(state.sinceRenewedMs / 1000)} s ago`;
}

/** Ticks missed before the scheduler counts as stalled (a tick failing, or the event loop blocked). */
const STALLED_AFTER_TICKS = 3;

/** Why the scheduler is unhealthy, or undefined when it is fine. */
export function schedulerProblem(state: SchedulerHealth | undefined): string | undefined {
  if (state === undefined || !state.running) return 'the scheduler is not running';
  // A second of slack for a slow tick over a large number of settings.
  const stalledAfterMs = state.intervalMs * STALLED_AFTER_TICKS + 1000;
  const sinceMs = state.sinceLastTickMs;
  if (sinceMs === undefined) {
    // Its first look, at start, may still be under way (a few round trips to a shared database).
    const sinceStartMs = state.sinceStartMs ?? Number.POSITIVE_INFINITY;
    if (sinceStartMs <= stalledAfterMs) return undefined;
    return `the scheduler has not looked at the schedules since it started ${Math.round(sinceStartMs / 1000)} s ago`;
  }
  if (sinceMs > stalledAfterMs)
    return `the scheduler last looked at the schedules ${Math.round(sinceMs / 1000)} s ago`;
  return undefined;
}
