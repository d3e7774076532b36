import type { ScheduledCrawlService } from '../usecases/index.js';

export interface SchedulerLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Wakes every `intervalMs` and starts the runs whose schedule slot has come. The first tick
 * happens at start, so a slot missed while the service was down runs once right away.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private lastTickMicros: number | undefined;
  /** performance.now() of the last successful tick: staleness is judged on it, not on the service clock. */
  private lastTickMs: number | undefined;
  private ticking = false;
  /** performance.now() of start(): a first tick still under way is not a stall. */
  private startedMs: number | undefined;

  constructor(
    private readonly service: ScheduledCrawlService,
    private readonly intervalMs: number,
    private readonly logger: SchedulerLogger,
    private readonly nowMicros: () => number,
  ) {}

  start(): void {
    this.startedMs = performance.now();
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** For the health check: running, when it last looked at the schedules, and how often it looks. */
  state(): {
    running: boolean;
    lastTickMicros: number | undefined;
    sinceLastTickMs: number | undefined;
    sinceStartMs: number | undefined;
    intervalMs: number;
  } {
    return {
      running: this.timer !== undefined,
      lastTickMicros: this.lastTickMicros,
      sinceLastTickMs: this.lastTickMs === undefined ? undefined : performance.now() - this.lastTickMs,
      sinceStartMs: this.startedMs === undefined ? undefined : performance.now() - this.startedMs,
      intervalMs: this.intervalMs,
    };
  }

  /** Looks at the schedules once; never fails (a failure is logged). A tick still going is not overlapped. */
  async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      const report = await this.service.tick();
      this.lastTickMicros = this.nowMicros();
      this.lastTickMs = performance.now();
      for (const run of report.started)
        this.logger.info(
          { run_id: run.id, service_setting_id: run.serviceSettingId },
          'scheduled run queued',
        );
      for (const skipped of report.skipped)
        this.logger.warn(
          { service_setting_id: skipped.settingId, run_id: skipped.runId },
          'schedule slot skipped: the previous run of this setting is still going',
        );
    } catch (error) {
      this.logger.error({ err: error }, 'scheduler tick failed');
    } finally {
      this.ticking = false;
    }
  }
}
