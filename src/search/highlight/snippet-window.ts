/**
 * Where a body snippet starts and ends: a little context before the chosen passage, preferably
 * from a sentence start, never cutting a Latin word or a character with its marks, and never
 * longer than the code points asked for.
 */
import { charLengthAt, charLengthBefore, classAt, classBefore, OTHER } from './char-class.js';
import type { TextRange } from './highlight-part.js';
import { joinsPrevious } from './normalized-text.js';

/** Code points of context shown before the first match. */
const LEAD = 20;
/** How far (code points) a window edge may move to land on a sentence start or a space. */
const NEAR = 10;
/** Sentence ends after which the next sentence starts at once. */
const WIDE_SENTENCE_ENDS = new Set(['。', '．', '！', '？']);
/** Sentence ends only when a space follows (`3.14` and `Node.js` go on). */
const ASCII_SENTENCE_ENDS = new Set(['.', '!', '?']);
const SPACE = /\s/;

/**
 * How long (code units) a passage may be to leave room for the context before it; code units
 * are never fewer than code points, so a passage that fits here fits the window.
 */
export function passageSpan(maxChars: number): number {
  return maxChars - leadOf(maxChars);
}

function leadOf(maxChars: number): number {
  return Math.min(LEAD, Math.floor(maxChars / 4));
}

/** The window, in code units of `text`, around `cluster` (or at the start when none). */
export function snippetWindow(text: string, cluster: TextRange | undefined, maxChars: number): TextRange {
  const keepFrom = cluster?.start ?? text.length;
  let start = cluster === undefined ? 0 : startBefore(text, cluster, maxChars);
  start = skipSpaces(text, start, keepFrom);
  let end = endAfter(text, start, maxChars, cluster?.end ?? start);
  if (end === text.length && start > 0) {
    // The text ends inside the window: show more of what comes before instead of a short snippet.
    let earlier = cleanStart(text, back(text, text.length, maxChars), start);
    earlier = skipSpaces(text, earlier, keepFrom);
    if (earlier < start) {
      start = earlier;
      end = endAfter(text, start, maxChars, cluster?.end ?? start);
    }
  }
  return { start, end };
}

function startBefore(text: string, cluster: TextRange, maxChars: number): number {
  // Not so early that the end of the passage falls out of the window.
  const earliest = back(text, cluster.end, maxChars);
  if (earliest >= cluster.start) return cluster.start;
  const lead = leadOf(maxChars);
  const reach = Math.max(back(text, cluster.start, lead + NEAR), earliest);
  // The text's own start is the earliest sentence start there can be.
  if (reach === 0) return 0;
  for (let index = reach; index < cluster.start;) {
    const length = charLengthAt(text, index);
    if (endsSentence(text, index)) return index + length;
    index += length;
  }
  const ideal = Math.max(back(text, cluster.start, lead), earliest);
  return cleanStart(text, ideal, cluster.start, earliest);
}

/** `start`, moved past a partial unit, or to a nearby space when it would cut a word. */
function cleanStart(text: string, start: number, limit: number, earliest = start): number {
  let clean = start;
  while (clean < limit && joinsPrevious(text, clean)) clean += charLengthAt(text, clean);
  if (!cutsWord(text, clean)) return clean;
  const after = findSpace(text, clean, 1, limit);
  if (after >= 0) return after + 1;
  const before = findSpace(text, clean, -1, earliest);
  return before >= 0 ? before + 1 : clean;
}

function endAfter(text: string, start: number, maxChars: number, keepTo: number): number {
  let end = forward(text, start, maxChars);
  if (end < text.length) {
    while (end > start && joinsPrevious(text, end)) end -= charLengthBefore(text, end);
    if (cutsWord(text, end)) {
      const space = findSpace(text, end, -1, Math.max(keepTo, start + 1));
      if (space >= 0) end = space;
    }
  }
  while (end > start && SPACE.test(text[end - 1]!)) end -= 1;
  return end;
}

/**
 * The first whitespace within NEAR code points of `from`, going forward (`direction` 1, from
 * `from` on, before `limit`) or back (-1, before `from`, at or after `limit`); -1 when none.
 */
function findSpace(text: string, from: number, direction: 1 | -1, limit: number): number {
  let index = direction === 1 ? from : from - charLengthBefore(text, from);
  for (let step = 0; step < NEAR; step += 1) {
    if (direction === 1 ? index >= limit : index < limit || index < 0) return -1;
    if (SPACE.test(text[index]!)) return index;
    index += direction === 1 ? charLengthAt(text, index) : -charLengthBefore(text, index);
  }
  return -1;
}

function endsSentence(text: string, index: number): boolean {
  const char = text[index]!;
  if (WIDE_SENTENCE_ENDS.has(char)) return true;
  return ASCII_SENTENCE_ENDS.has(char) && index + 1 < text.length && SPACE.test(text[index + 1]!);
}

function cutsWord(text: string, index: number): boolean {
  return (
    index > 0 && index < text.length && classBefore(text, index) === OTHER && classAt(text, index) === OTHER
  );
}

function skipSpaces(text: string, start: number, limit: number): number {
  let index = start;
  while (index < limit && SPACE.test(text[index]!)) index += 1;
  return index;
}

/** `count` code points back from `index`, or 0. */
function back(text: string, index: number, count: number): number {
  let position = index;
  for (let step = 0; step < count && position > 0; step += 1) {
    position -= charLengthBefore(text, position);
  }
  return position;
}

/** `count` code points on from `index`, or the end. */
function forward(text: string, index: number, count: number): number {
  let position = index;
  for (let step = 0; step < count && position < text.length; step += 1) {
    position += charLengthAt(text, position);
  }
  return position;
}
