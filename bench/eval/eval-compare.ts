import type { EvalFigures, SetFigures, SystemFigures } from './eval-figures.js';
import { padColumns } from './text-columns.js';

const LABEL = 34;
const COLUMN = 12;

interface Measure {
  label: string;
  value: (set: SetFigures) => number | undefined;
  /** Printed as a percentage (a share) rather than a 4-digit figure. */
  share?: boolean;
}

const engineOf = (set: SetFigures): SystemFigures | undefined =>
  set.systems.find((system) => system.name === 'engine');

const MEASURES: readonly Measure[] = [
  { label: 'MRR@10', value: (set) => engineOf(set)?.mrr },
  { label: 'nDCG@10', value: (set) => engineOf(set)?.ndcg },
  { label: 'no relevant in top 10', value: (set) => engineOf(set)?.missed },
  { label: 'listing page above relevant', value: (set) => engineOf(set)?.listingAbove },
  { label: 'snippets with template text', value: (set) => set.snippets?.templateShare, share: true },
  { label: 'snippets with a query word', value: (set) => set.snippets?.queryWordShare, share: true },
  {
    label: 'descriptions with template text',
    value: (set) => set.snippets?.descriptionTemplateShare,
    share: true,
  },
  ...[2, 3, 4].flatMap((chars): Measure[] => [
    {
      label: `suggest MRR, ${chars} chars`,
      value: (set) => set.suggest?.find((figures) => figures.prefixChars === chars)?.mrr,
    },
    {
      label: `suggest in top 10, ${chars} chars`,
      value: (set) => set.suggest?.find((figures) => figures.prefixChars === chars)?.top10Share,
      share: true,
    },
  ]),
];

function format(value: number | undefined, measure: Measure): string {
  if (value === undefined) return '–';
  if (measure.share === true) return `${(100 * value).toFixed(1)}%`;
  return Number.isInteger(value) ? String(value) : value.toFixed(4);
}

function difference(before: number | undefined, after: number | undefined, measure: Measure): string {
  if (before === undefined || after === undefined) return '';
  const delta = after - before;
  const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±';
  const size = Math.abs(delta);
  if (measure.share === true) return `${sign}${(100 * size).toFixed(1)} pt`;
  return Number.isInteger(before) && Number.isInteger(after) ? `${sign}${size}` : `${sign}${size.toFixed(4)}`;
}

/** The engine's figures before and after, set by set (matched by key), as lines of text. */
export function comparisonLines(before: EvalFigures, after: EvalFigures): string[] {
  const lines: string[] = [];
  const row = (cells: readonly string[]) =>
    padColumns(cells[0]!, LABEL) +
    cells
      .slice(1)
      .map((cell) => padColumns(cell, COLUMN))
      .join('')
      .trimEnd();
  const keys = [...new Set([...before.sets, ...after.sets].map((set) => set.key))];
  for (const key of keys) {
    const old = before.sets.find((set) => set.key === key);
    const now = after.sets.find((set) => set.key === key);
    const label = (now ?? old)!.label;
    lines.push('', `== ${label}: before ${describe(old)}, after ${describe(now)}`);
    if (old === undefined || now === undefined) continue;
    lines.push(row(['', 'before', 'after', 'change']));
    for (const measure of MEASURES) {
      const [a, b] = [measure.value(old), measure.value(now)];
      lines.push(row([measure.label, format(a, measure), format(b, measure), difference(a, b, measure)]));
    }
  }
  return lines;
}

function describe(set: SetFigures | undefined): string {
  if (set === undefined) return 'not measured';
  // Files written before the eval crawled read the content pages from disk.
  const corpus = set.corpus === 'crawl' ? 'crawled' : 'read from disk';
  return `${set.queries} queries, ${set.pages} pages ${corpus}, ${set.debianPackage} ${set.packageVersion}`;
}
