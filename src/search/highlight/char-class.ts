/**
 * Which kind of run a character of normalized text belongs to, as the analyzer's `runsOf` sees
 * it: matches are checked against run boundaries (a Latin word is matched whole, a word made of
 * several runs needs them adjacent). The analyzer is asked once per code point and the answer
 * kept, so it stays the one definition of a run.
 */
import { runsOf } from '../analyzer.js';

/** Between runs: spaces and punctuation. */
export const GAP = 1;
/** Han, Hiragana, Katakana and the marks that live in Japanese words. */
export const JAPANESE = 2;
/** Other letters, digits and marks: a Latin (or Korean, Thai…) word. */
export const OTHER = 3;
export type CharClass = typeof GAP | typeof JAPANESE | typeof OTHER;

/** 0 until the code point is first seen; one byte per code point bounds the cache at 1.1 MB. */
const known = new Uint8Array(0x110000);

function classOfCodePoint(codePoint: number): CharClass {
  const cached = known[codePoint];
  if (cached !== undefined && cached !== 0) return cached as CharClass;
  const run = runsOf(String.fromCodePoint(codePoint))[0];
  const found: CharClass = run === undefined ? GAP : run.japanese ? JAPANESE : OTHER;
  known[codePoint] = found;
  return found;
}

/** The class of the character starting at `index`; past the end counts as a gap. */
export function classAt(text: string, index: number): CharClass {
  const codePoint = text.codePointAt(index);
  return codePoint === undefined ? GAP : classOfCodePoint(codePoint);
}

/** The class of the character ending at `index`; before the start counts as a gap. */
export function classBefore(text: string, index: number): CharClass {
  return index <= 0 ? GAP : classAt(text, index - charLengthBefore(text, index));
}

/** Code units taken by the character starting at `index` (2 for a surrogate pair). */
export function charLengthAt(text: string, index: number): number {
  return isHighSurrogate(text.charCodeAt(index)) && isLowSurrogate(text.charCodeAt(index + 1)) ? 2 : 1;
}

/** Code units taken by the character ending at `index`. */
export function charLengthBefore(text: string, index: number): number {
  return index >= 2 &&
    isLowSurrogate(text.charCodeAt(index - 1)) &&
    isHighSurrogate(text.charCodeAt(index - 2))
    ? 2
    : 1;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
