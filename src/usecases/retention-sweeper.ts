import type { ArtifactStore } from '../blob/index.js';
import type { CrawlRunStore } from '../store/index.js';
import type { Clock } from '../util/index.js';

const MICROS_PER_DAY = 86_400_000_000;

/** Where a sweep reports what it removed (the app's logger in `kumo serve`). */
export interface SweepLogger {
  info(fields: object, message: string): void;
}

/**
 * Removes artifacts of runs that ended more than `retentionDays` ago (KUMO_ARTIFACT_RETENTION_DAYS);
 * a later download of them answers 410. Returns how many runs were swept.
 */
export async function sweepExpiredArtifacts(
  runs: CrawlRunStore,
  artifacts: ArtifactStore,
  clock: Clock,
  retentionDays: number,
  logger?: SweepLogger,
): Promise<number> {
  const now = clock.nowMicros();
  const expired = await runs.listArtifactsEndedBefore(now - retentionDays * MICROS_PER_DAY);
  for (const run of expired) {
    await artifacts.remove(run.id);
    await runs.markArtifactsDeleted(run.id, now);
    logger?.info({ run_id: run.id }, 'artifacts removed by retention');
  }
  return expired.length;
}
