import type { Judgment } from './judgments.js';
import { listingAboveOf } from './listing-above.js';
import { DEPTH, firstRelevantRank, ndcg, reciprocalRank } from './metrics.js';
import type { SystemRun } from './run-system.js';
import { padColumns } from './text-columns.js';

const LABEL = 26;
const COLUMN = 24;
const EXAMPLES = 6;

export interface Summary {
  mrr: number;
  ndcg: number;
  /** Queries with no relevant page in the top DEPTH. */
  missed: number;
  /** Queries with no result at all (every word is required, there is no fallback). */
  empty: number;
  /** Queries with a listing page above the first relevant page (listing-above.ts). */
  listingAbove: number;
}

export function line(label: string, value: string): void {
  process.stdout.write(`${padColumns(label, LABEL)}${value}\n`);
}

export function summaryOf(
  run: SystemRun,
  judgments: readonly Judgment[],
  isListing: (url: string) => boolean,
): Summary {
  let mrr = 0;
  let gain = 0;
  let missed = 0;
  let empty = 0;
  judgments.forEach(({ relevant }, index) => {
    const ranked = run.rankings[index] ?? [];
    mrr += reciprocalRank(ranked, relevant);
    gain += ndcg(ranked, relevant);
    if (firstRelevantRank(ranked, relevant) === undefined) missed += 1;
    if (ranked.length === 0) empty += 1;
  });
  const count = Math.max(1, judgments.length);
  const listingAbove = listingAboveOf(run.rankings, judgments, isListing).queries;
  return { mrr: mrr / count, ndcg: gain / count, missed, empty, listingAbove };
}

/** `+12.3%`: how far the engine's figure is above (or below) a baseline's. */
function relative(engine: number, baseline: number): string {
  if (baseline === 0) return engine === 0 ? '±0%' : 'n/a';
  const percent = (100 * (engine - baseline)) / baseline;
  return `${percent >= 0 ? '+' : ''}${percent.toFixed(1)}%`;
}

/**
 * Engine and baselines side by side; a baseline's MRR and nDCG carry the engine's relative
 * difference to it in parentheses. A failed system shows its error instead of figures.
 */
export function printComparison(
  engine: SystemRun,
  baselines: readonly SystemRun[],
  judgments: readonly Judgment[],
  isListing: (url: string) => boolean,
): void {
  const runs = [engine, ...baselines];
  const summaries = runs.map((run) =>
    run.error === undefined ? summaryOf(run, judgments, isListing) : undefined,
  );
  const engineSummary = summaries[0];
  const row = (label: string, cell: (summary: Summary, index: number) => string): void => {
    const cells = summaries.map((summary, index) =>
      padColumns(summary === undefined ? 'failed' : cell(summary, index), COLUMN),
    );
    line(label, cells.join('').trimEnd());
  };
  const metric = (value: (summary: Summary) => number) => (summary: Summary, index: number) => {
    const figure = value(summary).toFixed(4);
    if (index === 0 || engineSummary === undefined) return figure;
    return `${figure} (${relative(value(engineSummary), value(summary))})`;
  };
  line(
    '',
    runs
      .map((run) => padColumns(run.name, COLUMN))
      .join('')
      .trimEnd(),
  );
  row(
    `MRR@${DEPTH}`,
    metric((summary) => summary.mrr),
  );
  row(
    `nDCG@${DEPTH}`,
    metric((summary) => summary.ndcg),
  );
  row(`no relevant in top ${DEPTH}`, (summary) => String(summary.missed));
  row('no result at all', (summary) => String(summary.empty));
  row('listing above relevant', (summary) => String(summary.listingAbove));
  row('index / search time', (_summary, index) => {
    const run = runs[index]!;
    return `${run.indexSeconds.toFixed(2)} s / ${run.searchSeconds.toFixed(2)} s`;
  });
  for (const run of runs) if (run.error !== undefined) line(`${run.name} failed`, run.error);
  if (baselines.length > 0) line('', '(in parentheses: engine relative to that baseline)');
}

/** Queries where the engine puts the first relevant page higher (wins) or lower (losses) than a baseline. */
export function printExamples(engine: SystemRun, baseline: SystemRun, judgments: readonly Judgment[]): void {
  if (engine.error !== undefined || baseline.error !== undefined) return;
  const compared = judgments.map(({ query, relevant }, index) => {
    const engineRank = firstRelevantRank(engine.rankings[index] ?? [], relevant);
    const baselineRank = firstRelevantRank(baseline.rankings[index] ?? [], relevant);
    const gain =
      (engineRank === undefined ? 0 : 1 / engineRank) - (baselineRank === undefined ? 0 : 1 / baselineRank);
    return { query, engineRank, baselineRank, gain };
  });
  const show = (title: string, picked: typeof compared): void => {
    line(
      `${title} (${picked.length})`,
      `first relevant rank: engine / ${baseline.name} ('-': none in top ${DEPTH})`,
    );
    // Spread over the list, biggest difference first, so both clear and narrow cases show.
    const count = Math.min(EXAMPLES, picked.length);
    for (let i = 0; i < count; i += 1) {
      const { query, engineRank, baselineRank } = picked[Math.floor((i * picked.length) / count)]!;
      line(`  ${query}`, `${engineRank ?? '-'} / ${baselineRank ?? '-'}`);
    }
  };
  const byGain = (a: (typeof compared)[number], b: (typeof compared)[number]) =>
    Math.abs(b.gain) - Math.abs(a.gain) || (a.query < b.query ? -1 : a.query > b.query ? 1 : 0);
  show('engine wins', compared.filter(({ gain }) => gain > 0).sort(byGain));
  show('engine loses', compared.filter(({ gain }) => gain < 0).sort(byGain));
}
