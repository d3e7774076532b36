import { Scheduler } from '../scheduler/index.js';
import { sweepExpiredArtifacts, type ScheduledCrawlService } from '../usecases/index.js';
import type { ServiceParts } from './service-parts.js';

const RETENTION_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** The scheduler role's timers: scheduled runs and, with KUMO_ARTIFACT_RETENTION_DAYS, retention sweeps. */
export interface SchedulerAssembly {
  scheduler: Scheduler;
  start(): void;
  stop(): void;
}

export function assembleScheduler(
  parts: ServiceParts,
  scheduledCrawl: ScheduledCrawlService,
): SchedulerAssembly {
  const { config, clock, logger, store, artifacts } = parts;
  const scheduler = new Scheduler(scheduledCrawl, config.schedulerIntervalSeconds * 1000, logger, () =>
    clock.nowMicros(),
  );
  const retentionDays = config.artifactRetentionDays;
  let sweepTimer: NodeJS.Timeout | undefined;
  return {
    scheduler,
    start() {
      scheduler.start();
      if (retentionDays === undefined) return;
      const sweep = () =>
        void sweepExpiredArtifacts(store.runs, artifacts, clock, retentionDays, logger).catch(
          (error: unknown) => logger.error({ err: error }, 'retention sweep failed'),
        );
      sweep();
      sweepTimer = setInterval(sweep, RETENTION_SWEEP_INTERVAL_MS);
      sweepTimer.unref();
    },
    stop() {
      clearInterval(sweepTimer);
      scheduler.stop();
    },
  };
}
