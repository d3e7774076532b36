/**
 * URLs crafted against RE2: random strings of x and 0, on which the automaton of a pattern like
 * `[x0]*x[x0]{600}[x0]{590}q` outgrows its memory and RE2 falls back to its slow simulation
 * (docs/design/url-patterns.md, URL patterns).
 */

/** A rule at the instruction limit that costs about 0.1 s on an 8 KB crafted path. */
export const SLOW_URL_PATTERN = '[x0]*x[x0]{600}[x0]{590}q';

/** A seeded random string of x and 0 (xorshift), the same on every run. */
export function craftedPath(seed: number, length: number): string {
  let state = seed * 2654435761 + 1;
  let text = '';
  for (let at = 0; at < length; at += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    text += (state & 1) === 0 ? 'x' : '0';
  }
  return text;
}
