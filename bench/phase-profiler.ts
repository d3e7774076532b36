/**
 * CPU profiles of the benchmark's phases: with BENCH_CPU_PROFILE=<dir>, each phase run through
 * `profiled` is written to `<dir>/<phase>.cpuprofile` (open in Chrome DevTools or speedscope).
 * Without it, phases run unprofiled.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';

export class PhaseProfiler {
  private session: Session | undefined;

  constructor(private readonly directory: string | undefined) {}

  async profiled<T>(phase: string, run: () => Promise<T> | T): Promise<T> {
    if (this.directory === undefined) return run();
    if (this.session === undefined) {
      this.session = new Session();
      this.session.connect();
      await this.session.post('Profiler.enable');
      await this.session.post('Profiler.setSamplingInterval', { interval: 200 });
    }
    await this.session.post('Profiler.start');
    try {
      return await run();
    } finally {
      const { profile } = await this.session.post('Profiler.stop');
      mkdirSync(this.directory, { recursive: true });
      writeFileSync(path.join(this.directory, `${phase}.cpuprofile`), JSON.stringify(profile));
    }
  }

  close(): void {
    this.session?.disconnect();
  }
}
