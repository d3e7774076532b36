import type RE2 from 're2';
import type * as Re2js from 're2js';
import { lazyRequire } from '../util/index.js';

/**
 * The URL patterns tenants and operators write (allow / deny / credential patterns of a crawl,
 * category and drill-down rules of a search service) run on RE2, a linear-time engine: matching
 * never backtracks, it takes time proportional to the URL length (times a factor bounded by the
 * pattern's size), so no pattern takes hours on one URL (docs/design/url-patterns.md, URL patterns).
 */
export interface UrlPattern {
  /** The pattern as written. */
  readonly written: string;
  test(url: string): boolean;
  exec(url: string): RegExpExecArray | null;
}

/**
 * RE2's bindings and re2js, loaded with the first pattern compiled (a setting checked or crawled, a
 * search service's rules) rather than at start: an idle service holds neither (docs/operations.md,
 * Memory).
 */
const re2 = lazyRequire<typeof RE2>('re2');
const re2js = lazyRequire<typeof Re2js>('re2js');

/** Longest allow / deny pattern accepted (the schema states the same limit). */
export const MAX_URL_PATTERN_LENGTH = 1000;
/** Most allow or deny patterns of one setting. */
export const MAX_URL_PATTERNS = 100;

/**
 * Most instructions a pattern's compiled program may have. Matching is linear in the URL length
 * times a factor that grows with the program when RE2's automaton outgrows its memory and falls
 * back to simulating the program: a program of 2,000 instructions took 0.15 s on an 8 KB URL, one
 * of 1,200 about 80 ms. A literal pattern of the longest length (1,000 characters) compiles to
 * about 1,000; ordinary URL patterns to 10–100 (docs/design/url-patterns.md, URL patterns).
 */
export const MAX_PATTERN_INSTRUCTIONS = 1200;

/** Thrown for a pattern whose compiled program is over MAX_PATTERN_INSTRUCTIONS. */
export class PatternTooLargeError extends Error {
  override name = 'PatternTooLargeError';

  constructor(readonly instructions: number) {
    super(`pattern compiles to ${instructions} instructions`);
  }
}

/**
 * The size of a pattern's compiled program, counted by re2js (RE2's own compiler ported to
 * JavaScript; the native bindings do not report it). Undefined when re2js reads the pattern
 * differently from RE2 and cannot compile it: RE2 accepted it, so its size goes unchecked.
 */
function instructionCount(written: string): number | undefined {
  try {
    return re2js().RE2JS.compile(written).programSize();
  } catch {
    return undefined;
  }
}

/**
 * Compiles a pattern with RE2 syntax (docs/reference/crawl-rules.md, Scope). Throws RE2's
 * SyntaxError for a pattern it cannot express, PatternTooLargeError for one over the size budget;
 * urlPatternProblem says why in plain words.
 */
export function compileUrlPattern(written: string): UrlPattern {
  // 'u': RE2 always reads code points; the flag says so and keeps it from warning.
  const RE2Pattern = re2();
  const compiled = new RE2Pattern(written, 'u');
  const instructions = instructionCount(written);
  if (instructions !== undefined && instructions > MAX_PATTERN_INSTRUCTIONS)
    throw new PatternTooLargeError(instructions);
  return {
    written,
    test: (url) => compiled.test(url),
    exec: (url) => compiled.exec(url),
  };
}
