/** The bench's output: a block per attack as it ends, and a table of every attack at the end. */
import type { AttackFigures } from './attack-runner.js';
import type { ProbeFigures } from './victim-probes.js';

const ms = (value: number) => (Number.isNaN(value) ? '-' : `${Math.round(value)} ms`);
const hold = (seconds: number | undefined) =>
  seconds === undefined ? 'n/a' : `${(seconds * 1000).toFixed(0)} ms`;

function probeLine(label: string, probes: ProbeFigures): string {
  return (
    `  B ${label.padEnd(7)} ${probes.answered}/${probes.sent} answered (${probes.failed} failed or unanswered), ` +
    `median ${ms(probes.medianMs)}, worst ${ms(probes.worstMs)}`
  );
}

export function attackBlock(figures: AttackFigures): string {
  return [
    `attack ${figures.name}: ${figures.description}`,
    `  ran ${figures.seconds.toFixed(1)} s${figures.capped ? ' (stopped at the cap)' : ''}; attack answers: ${figures.outcome.answers.toString()}`,
    probeLine('health', figures.health),
    probeLine('search', figures.search),
    `  worst API-thread hold: ${hold(figures.worstHold)}; the service answered /metrics again ` +
      `${figures.answeringAgain.toFixed(1)} s after the attack began`,
    ...figures.outcome.notes.map((note) => `  ${note}`),
    '',
  ].join('\n');
}

export function summaryTable(all: readonly AttackFigures[]): string {
  const row = (cells: string[]) =>
    cells.map((cell, index) => (index === 0 ? cell.padEnd(26) : cell.padStart(14))).join('');
  return [
    row(['attack', 'seconds', 'health p50', 'health max', 'search p50', 'search max', 'worst hold']),
    ...all.map((figures) =>
      row([
        figures.name,
        figures.seconds.toFixed(1),
        ms(figures.health.medianMs),
        ms(figures.health.worstMs),
        ms(figures.search.medianMs),
        ms(figures.search.worstMs),
        hold(figures.worstHold),
      ]),
    ),
    '',
  ].join('\n');
}
