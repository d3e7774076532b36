/** Counting and cutting text by code points, never splitting a surrogate pair. */

/** Matches text holding a code point beyond the BMP (a pair's first half, or a lone one). */
export const HIGH_SURROGATE = /[\ud800-\udbff]/;

/** The first `count` code points of `text`. */
export function firstCodePoints(text: string, count: number): string {
  if (text.length <= count) return text;
  let end = 0;
  for (let taken = 0; taken < count && end < text.length; taken += 1) {
    end += text.codePointAt(end)! > 0xffff ? 2 : 1;
  }
  return text.slice(0, end);
}

/** Code points of `text` (a lone surrogate counts as one, as the string iterator yields it). */
export function codePointCount(text: string): number {
  if (!HIGH_SURROGATE.test(text)) return text.length;
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** A surrogate without its other half. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const ANY_SURROGATE = /[\ud800-\udfff]/;

/** `text` with each lone surrogate as U+FFFD (String.prototype.toWellFormed, ES2024). */
export function wellFormed(text: string): string {
  return ANY_SURROGATE.test(text) ? text.replace(LONE_SURROGATE, '\ufffd') : text;
}
