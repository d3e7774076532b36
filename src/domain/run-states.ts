/** Run states with their ids and names (docs/reference/run-states.md, States). */
export const RunState = {
  pending: 2010,
  running: 2020,
  stopped: 2030,
  troubled: 2040,
  stoppedByCancel: 2050,
  stoppedByTimeout: 2060,
} as const;

export type RunStateId = (typeof RunState)[keyof typeof RunState];

const STATE_NAMES: Record<RunStateId, string> = {
  2010: 'not yet running',
  2020: 'running',
  2030: 'stopped',
  2040: 'fault',
  2050: 'stopped by cancel',
  2060: 'stopped by timeout',
};

/**
 * Why a run ended (docs/reference/run-states.md, End reasons): it fetched everything it found,
 * it fetched as many pages as its documents limit allows, it ran out of time, or it was cancelled.
 */
export const RUN_END_REASONS = ['completed', 'documents_limit', 'time_limit', 'cancelled'] as const;
export type RunEndReason = (typeof RUN_END_REASONS)[number];

export function isRunEndReason(value: unknown): value is RunEndReason {
  return (RUN_END_REASONS as readonly unknown[]).includes(value);
}

/**
 * The end reason a run's state alone tells: a cancelled or timed out run, including one that ended
 * before reasons were recorded or was cancelled before it started.
 */
export function endReasonOfState(state: RunStateId): RunEndReason | null {
  if (state === RunState.stoppedByCancel) return 'cancelled';
  if (state === RunState.stoppedByTimeout) return 'time_limit';
  return null;
}

export function stateName(state: RunStateId): string {
  return STATE_NAMES[state];
}

export function isActiveState(state: RunStateId): boolean {
  return state === RunState.pending || state === RunState.running;
}
