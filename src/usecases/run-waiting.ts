import type { RunningCounts } from '../store/index.js';

/** The run slots of the service (KUMO_WORKER_CONCURRENCY) and one contract's share of them. */
export interface RunSlots {
  /** undefined: the slots are those of a cluster's workers, not known to this process. */
  concurrency: number | undefined;
  /** undefined: no cap (KUMO_MAX_RUNNING_PER_CONTRACT 0). */
  maxRunningPerContract?: number | undefined;
}

const runs = (count: number) => `${count} run${count === 1 ? '' : 's'}`;

/**
 * Why a pending run of a contract has not started, from the running runs counted now
 * (docs/reference/run-states.md, Waiting). The contract's cap comes first: while it holds, a free
 * slot would not start the run either.
 */
export function waitingReason(counts: RunningCounts, slots: RunSlots): string {
  const cap = slots.maxRunningPerContract;
  if (cap !== undefined && counts.ofContract >= cap)
    return `waiting: this contract already has ${runs(counts.ofContract)} running (limit ${cap})`;
  if (slots.concurrency === undefined) return 'waiting: for a free run slot of the workers';
  // Runs resumed after a restart may outnumber the slots for a while: they are all busy then.
  if (counts.total >= slots.concurrency)
    return `waiting: ${slots.concurrency} of ${slots.concurrency} run slots busy`;
  return 'waiting: a run slot is free, the run starts in a moment';
}
