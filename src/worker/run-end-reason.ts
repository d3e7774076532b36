import type { CrawlOutcome } from '../crawler/engine.js';
import type { RunEndReason } from '../domain/index.js';

const END_REASONS: Record<Exclude<CrawlOutcome, 'interrupted'>, RunEndReason> = {
  completed: 'completed',
  limit_reached: 'documents_limit',
  timed_out: 'time_limit',
  cancelled: 'cancelled',
};

/**
 * The end reason recorded with a run (docs/reference/run-states.md, End reasons): a finished run
 * (2030) either fetched all it found or stopped at its documents limit, which its state alone
 * does not tell.
 */
export function endReasonOf(outcome: Exclude<CrawlOutcome, 'interrupted'>): RunEndReason {
  return END_REASONS[outcome];
}
