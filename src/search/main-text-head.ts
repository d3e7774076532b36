/**
 * The start of a hit's main text, as the result page shows it (start text, description, the
 * snippet's passage): mainTextOf's lines joined by spaces, cut after a number of code points.
 * Only the lines up to that cut are looked at, so a hit with a 1 MB body costs what its first
 * screen of text costs; the stored body is read only that far too (docs/architecture.md,
 * Search requests).
 */
import { codePointCount, firstCodePoints } from '../util/code-points.js';
import { blockHashOfRange, MAX_BLOCK_CHARS, pageHostOf, type TemplateBlocks } from './template-blocks.js';

export interface MainTextHead {
  /** The first code points of the main text, its lines joined by spaces. */
  text: string;
  /** Whether the main text goes on after `text`. */
  more: boolean;
}

/**
 * The first `maxCodePoints` code points of `mainTextOf(body, url, blocks)` with line breaks as
 * spaces. `bodyComplete` false says `body` is only the start of the stored body: a line cut at
 * its end is then not judged (it may be a template line whole), and the answer is undefined when
 * that start is too short to tell what the whole body would give.
 */
export function mainTextHead(
  body: string,
  bodyComplete: boolean,
  url: string,
  blocks: TemplateBlocks,
  maxCodePoints: number,
): MainTextHead | undefined {
  const template = blocks.get(pageHostOf(url));
  if (template === undefined || template.size === 0) return wholeBodyHead(body, bodyComplete, maxCodePoints);
  const kept: string[] = [];
  let keptPoints = 0;
  for (let start = 0; ;) {
    const newline = body.indexOf('\n', start);
    const last = newline < 0;
    const end = last ? body.length : newline;
    const long = end - start > MAX_BLOCK_CHARS;
    // A cut line longer than a block is main text whatever follows; a shorter one may be the
    // start of a template line.
    if (last && !bodyComplete && !long) return undefined;
    if (long || !template.has(blockHashOfRange(body, start, end))) {
      const line = body.slice(start, end);
      keptPoints += (kept.length > 0 ? 1 : 0) + codePointCount(line);
      kept.push(line);
      if (keptPoints > maxCodePoints) {
        return { text: firstCodePoints(kept.join(' '), maxCodePoints), more: true };
      }
    }
    if (last) break;
    start = newline + 1;
  }
  if (!bodyComplete) return undefined;
  // A page that is all template shows its whole body (mainTextOf).
  if (kept.length === 0) return wholeBodyHead(body, true, maxCodePoints);
  return { text: kept.join(' '), more: false };
}

function wholeBodyHead(body: string, bodyComplete: boolean, maxCodePoints: number): MainTextHead | undefined {
  const text = firstCodePoints(body, maxCodePoints).replaceAll('\n', ' ');
  const more = text.length < body.length;
  return more || bodyComplete ? { text, more } : undefined;
}
