/**
 * The report of bench:engines on stdout: each figure of Kumo on one line with the same figure of
 * its anchor engine beside it, and, where there is one, the goal and whether it was met (as
 * bench:search's report, search-report.ts, marks them).
 */
import type { Goal } from '../search-report.js';

export const ENGINE_GOALS = {
  tailRatio: { text: '<= 2x', met: (ratio: number) => ratio <= 2 },
  httpShare: { text: '>= 50%', met: (percent: number) => percent >= 50 },
  httpP99: { text: '<= 30 ms', met: (ms: number) => ms <= 30 },
  httpP50One: { text: '<= 1.5 ms', met: (ms: number) => ms <= 1.5 },
  idleRss: { text: '<= 80 MB', met: (megabytes: number) => megabytes <= 80 },
  servingRss: { text: '<= 150 MB', met: (megabytes: number) => megabytes <= 150 },
  failures: { text: '= 0', met: (count: number) => count === 0 },
} satisfies Record<string, Goal>;

const LABEL_WIDTH = 38;
const KUMO_WIDTH = 28;
const ANCHOR_WIDTH = 36;

export class EnginesReport {
  private readonly verdicts: boolean[] = [];

  /** A section's title, and over its columns whose figures they are. */
  heading(text: string, kumo?: string, anchor?: string): void {
    process.stdout.write(`\n${text}\n`);
    if (kumo !== undefined) process.stdout.write(`${this.columns('', kumo, anchor ?? '').trimEnd()}\n`);
  }

  /** Kumo's figure and the anchor's, side by side. */
  pair(label: string, kumo: string, anchor: string, goal?: { goal: Goal; value: number }): void {
    this.write(this.columns(`  ${label}`, kumo, anchor), goal);
  }

  /** A figure of its own across both columns: a ratio, or a note. */
  line(label: string, value: string, goal?: { goal: Goal; value: number }): void {
    this.write(`${cell(`  ${label}`, LABEL_WIDTH)}${value}`, goal);
  }

  /** How many goals were met, of how many. */
  summary(): string {
    return `${this.verdicts.filter(Boolean).length} of ${this.verdicts.length} goals met`;
  }

  private columns(label: string, kumo: string, anchor: string): string {
    return `${cell(label, LABEL_WIDTH)}${cell(kumo, KUMO_WIDTH)}${anchor}`;
  }

  private write(text: string, goal: { goal: Goal; value: number } | undefined): void {
    let line = text;
    if (goal !== undefined) {
      const met = goal.goal.met(goal.value);
      this.verdicts.push(met);
      const width = LABEL_WIDTH + KUMO_WIDTH + ANCHOR_WIDTH;
      line = `${cell(line, width)}goal ${goal.goal.text.padEnd(10)}${met ? 'met' : 'NOT MET'}`;
    }
    process.stdout.write(`${line.trimEnd()}\n`);
  }
}

/** `text` padded to `width`, or followed by two spaces when it is as long or longer. */
function cell(text: string, width: number): string {
  return text.length > width - 2 ? `${text}  ` : text.padEnd(width);
}

export const ratio = (value: number) => `${value.toFixed(2)}x`;
