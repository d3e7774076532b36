/**
 * The start of a hit's main text, as the result page shows it (start text, description, the
 * snippet's passage): mainTextOf's lines joined by spaces, cut after a number of code points.
 * Only the lines up to that cut are looked at, so a hit with a 1 MB body costs what its first
 * screen of text costs; the stored body is read only that far too (docs/design/search-engine.md,
 * Search requests).
 */
import { codePointCount, firstCodePoints, HIGH_SURROGATE } from '../util/index.js';
import { blockHashOfRange, type HitTemplates, MAX_BLOCK_CHARS, pageHostOf } from './template-blocks.js';

export interface MainTextHead {
  /** The first code points of the main text, its lines joined by spaces. */
  text: string;
  /** Whether the main text goes on after `text`. */
  more: boolean;
}

/**
 * The first `maxCodePoints` code points of `mainTextOf(body, url, templates.blocks)` with line
 * breaks as spaces; `examined`, when given, is told every line hashed on the way (every line of
 * at most MAX_BLOCK_CHARS looked at, when `templates` has no lengths for the host). `bodyComplete` false says `body` is only the start of the stored body: a
 * line cut at its end is then not judged (it may be a template line whole), and the answer is
 * undefined when that start is too short to tell what the whole body would give.
 */
export function mainTextHead(
  body: string,
  bodyComplete: boolean,
  url: string,
  templates: HitTemplates,
  maxCodePoints: number,
  examined?: ExaminedLine,
): MainTextHead | undefined {
  const found = mainTextRuns(body, bodyComplete, url, templates, maxCodePoints, examined);
  return found && { text: textOfRuns(body, found.runs, maxCodePoints), more: found.more };
}

/**
 * Where mainTextHead's head lies in the body: the kept lines as runs of adjacent lines, each
 * `[start, end)` in UTF-16 code units, in `runs` as start, end, start, end…, the last one possibly
 * going past the cut; textOfRuns joins them.
 */
export interface MainTextRuns {
  runs: number[];
  more: boolean;
}

/** mainTextHead's head as runs of the body (its arguments and answers, without the text). */
export function mainTextRuns(
  body: string,
  bodyComplete: boolean,
  url: string,
  templates: HitTemplates,
  maxCodePoints: number,
  examined?: ExaminedLine,
): MainTextRuns | undefined {
  const host = pageHostOf(url);
  const found = templates.blocks.get(host);
  // Without template lines the head is the body's start; a walk told to report its lines gives
  // the same head line by line (main-text-head.test.ts checks it).
  if ((found === undefined || found.size === 0) && examined === undefined)
    return wholeBodyRuns(body, bodyComplete, maxCodePoints);
  const template = found ?? NO_LINES;
  // Hashing each line was most of a hit's cost; a line of a length no template line has is kept
  // without it.
  const lengths = templates.lineLengths.get(host);
  // Kept lines are taken as runs of adjacent lines, one slice each, rather than line by line.
  const runs: number[] = [];
  let runStart = -1;
  let runEnd = 0;
  let keptLines = 0;
  let keptPoints = 0;
  const astral = HIGH_SURROGATE.test(body);
  for (let start = 0; ;) {
    const newline = body.indexOf('\n', start);
    const last = newline < 0;
    const end = last ? body.length : newline;
    const length = end - start;
    const long = length > MAX_BLOCK_CHARS;
    // A cut line longer than a block is main text whatever follows; a shorter one may be the
    // start of a template line.
    if (last && !bodyComplete && !long) return undefined;
    if (long || lengths?.has(length) === false || !isTemplateLine(body, start, end, template, examined)) {
      keptPoints += (keptLines > 0 ? 1 : 0) + (astral ? codePointCount(body.slice(start, end)) : length);
      keptLines += 1;
      if (runStart < 0) runStart = start;
      runEnd = end;
      if (keptPoints > maxCodePoints) {
        runs.push(runStart, runEnd);
        return { runs, more: true };
      }
    } else if (runStart >= 0) {
      runs.push(runStart, runEnd);
      runStart = -1;
    }
    if (last) break;
    start = newline + 1;
  }
  if (!bodyComplete) return undefined;
  // A page that is all template shows its whole body (mainTextOf).
  if (keptLines === 0) return wholeBodyRuns(body, true, maxCodePoints);
  if (runStart >= 0) runs.push(runStart, runEnd);
  return { runs, more: false };
}

/**
 * The head that runs of `body` give: their slices joined by spaces, line breaks as spaces, its
 * first `maxCodePoints` code points. `body` need only reach as far as the runs it is cut by:
 * past `2 × maxCodePoints` code units of joined text nothing more is sliced.
 */
export function textOfRuns(body: string, runs: readonly number[], maxCodePoints: number): string {
  const limit = 2 * maxCodePoints;
  const pieces: string[] = [];
  let units = 0;
  for (let index = 0; index < runs.length && units < limit; index += 2) {
    const start = runs[index]!;
    const piece = body.slice(start, Math.min(runs[index + 1]!, start + limit - units));
    pieces.push(piece);
    units += piece.length + 1;
  }
  return firstCodePoints(pieces.join(' ').replaceAll('\n', ' '), maxCodePoints);
}

/** Told each line hashed by mainTextHead, and whether it was left out as template. */
export type ExaminedLine = (hash: number, template: boolean) => void;

const NO_LINES: ReadonlySet<number> = new Set();

function isTemplateLine(
  body: string,
  start: number,
  end: number,
  template: ReadonlySet<number>,
  examined: ExaminedLine | undefined,
): boolean {
  const hash = blockHashOfRange(body, start, end);
  const found = template.has(hash);
  examined?.(hash, found);
  return found;
}

function wholeBodyRuns(body: string, bodyComplete: boolean, maxCodePoints: number): MainTextRuns | undefined {
  const end = firstCodePoints(body, maxCodePoints).length;
  const more = end < body.length;
  return more || bodyComplete ? { runs: [0, end], more } : undefined;
}
