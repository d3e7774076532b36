import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';

/** What the scheduler says of itself (Scheduler.state()). */
export interface SchedulerHealth {
  running: boolean;
  /** When it last looked at the schedules successfully (epoch microseconds, service clock). */
  lastTickMicros: number | undefined;
  /** How long ago that was, measured on a monotonic clock. */
  sinceLastTickMs: number | undefined;
  /** How often it looks. */
  intervalMs: number;
}

/** Health sources of the check besides the store and the browser, wired by the service. */
export interface HealthSources {
  /** Why the artifact folder cannot be used, or undefined when it can. */
  blobStoreProblem(): Promise<string | undefined>;
  /** The scheduler's state; undefined before it exists. */
  scheduler(): SchedulerHealth | undefined;
}

/**
 * Why a folder cannot hold artifacts, or undefined when it can: it exists, is a folder, and the
 * process may list, read and write it. Says nothing of the path (the health check is public).
 */
export async function folderProblem(folder: string): Promise<string | undefined> {
  try {
    const info = await stat(folder);
    if (!info.isDirectory()) return 'the artifact folder is not a folder';
  } catch (error) {
    return `the artifact folder cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  try {
    await access(folder, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch (error) {
    return `the artifact folder is not readable and writable (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  return undefined;
}

/** Ticks missed before the scheduler counts as stalled (a tick failing, or the event loop blocked). */
const STALLED_AFTER_TICKS = 3;

/** Why the scheduler is unhealthy, or undefined when it is fine. */
export function schedulerProblem(state: SchedulerHealth | undefined): string | undefined {
  if (state === undefined || !state.running) return 'the scheduler is not running';
  const sinceMs = state.sinceLastTickMs;
  if (sinceMs === undefined) return 'the scheduler has not looked at the schedules yet';
  // A second of slack for a slow tick over a large number of settings.
  if (sinceMs > state.intervalMs * STALLED_AFTER_TICKS + 1000)
    return `the scheduler last looked at the schedules ${Math.round(sinceMs / 1000)} s ago`;
  return undefined;
}
