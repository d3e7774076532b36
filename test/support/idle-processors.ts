/**
 * How many of the machine's processors sat idle lately, from /proc/stat (Linux). test/run-suite.ts
 * starts another test file only while some are: files that mostly wait (for a schedule slot, a
 * timeout, a child process) then share the machine, and files that keep a core busy do not pile
 * up until services under test miss their waits (docs/operations.md, Running the tests).
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';

interface Sample {
  at: number;
  idle: number;
  total: number;
}

/** The machine's processor counters (idle and iowait against all), or undefined off Linux. */
function readCounters(): Omit<Sample, 'at'> | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const fields = line.trim().split(/\s+/).slice(1).map(Number);
    const [, , , idle = 0, iowait = 0] = fields;
    return { idle: idle + iowait, total: fields.reduce((sum, value) => sum + value, 0) };
  } catch {
    return undefined;
  }
}

export class IdleProcessors {
  private readonly samples: Sample[] = [];
  private readonly timer: NodeJS.Timeout | undefined;
  readonly available: boolean;

  /** Samples every `intervalMs`, keeping `windowMs` of them. */
  constructor(
    private readonly intervalMs = 500,
    private readonly windowMs = 3000,
  ) {
    this.available = readCounters() !== undefined;
    if (!this.available) return;
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  /** Idle processors on average over the window (0 to the processor count); undefined off Linux or before a full window. */
  idleOverWindow(): number | undefined {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (first === undefined || last === undefined || last.at - first.at < this.windowMs - this.intervalMs)
      return undefined;
    const total = last.total - first.total;
    if (total <= 0) return undefined;
    return ((last.idle - first.idle) / total) * os.availableParallelism();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private sample(): void {
    const counters = readCounters();
    if (counters === undefined) return;
    const now = Date.now();
    this.samples.push({ at: now, ...counters });
    while (this.samples.length > 0 && now - this.samples[0]!.at > this.windowMs) this.samples.shift();
  }
}
