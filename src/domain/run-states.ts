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

export function stateName(state: RunStateId): string {
  return STATE_NAMES[state];
}

export function isActiveState(state: RunStateId): boolean {
  return state === RunState.pending || state === RunState.running;
}
