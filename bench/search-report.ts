/** The aligned report of bench:search on stdout: label, value, and the goal with met / not met. */

export interface Goal {
  text: string;
  met: (value: number) => boolean;
}

export const GOALS = {
  indexing: { text: '>= 2,000 docs/s', met: (docsPerSecond: number) => docsPerSecond >= 2000 },
  searchP50: { text: '<= 5 ms', met: (ms: number) => ms <= 5 },
  searchP99: { text: '<= 25 ms', met: (ms: number) => ms <= 25 },
  suggestP99: { text: '<= 3 ms', met: (ms: number) => ms <= 3 },
  suggestStall: { text: '<= 100 ms', met: (ms: number) => ms <= 100 },
  non2xx: { text: '= 0', met: (count: number) => count === 0 },
} satisfies Record<string, Goal>;

const LABEL_WIDTH = 30;
const VALUE_WIDTH = 34;

export class SearchBenchReport {
  private readonly verdicts: boolean[] = [];

  heading(text: string): void {
    process.stdout.write(`\n${text}\n`);
  }

  line(label: string, value: string, goal?: { goal: Goal; value: number }): void {
    let text = `${label.padEnd(LABEL_WIDTH)}${value}`;
    if (goal !== undefined) {
      const met = goal.goal.met(goal.value);
      this.verdicts.push(met);
      text = `${text.padEnd(LABEL_WIDTH + VALUE_WIDTH)}goal ${goal.goal.text.padEnd(16)}${met ? 'met' : 'NOT MET'}`;
    }
    process.stdout.write(`${text.trimEnd()}\n`);
  }

  /** How many goals were met, of how many. */
  summary(): string {
    return `${this.verdicts.filter(Boolean).length} of ${this.verdicts.length} goals met`;
  }
}

export const ms = (value: number) => `${value.toFixed(2)} ms`;
export const count = (value: number) => value.toLocaleString('en-US');
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
