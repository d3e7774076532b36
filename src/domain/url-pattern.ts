import RE2 from 're2';

/**
 * The URL patterns tenants and operators write (allow / deny / credential patterns of a crawl,
 * category and drill-down rules of a search service) run on RE2, a linear-time engine: matching
 * never backtracks, it takes time proportional to the URL length (times a factor bounded by the
 * pattern's size), so no pattern takes hours on one URL (docs/architecture.md, URL patterns).
 */
export interface UrlPattern {
  /** The pattern as written. */
  readonly written: string;
  test(url: string): boolean;
  exec(url: string): RegExpExecArray | null;
}

/** Longest allow / deny pattern accepted (the schema states the same limit). */
export const MAX_URL_PATTERN_LENGTH = 1000;
/** Most allow or deny patterns of one setting. */
export const MAX_URL_PATTERNS = 100;

/**
 * Compiles a pattern with RE2 syntax (docs/reference/crawl-rules.md, Patterns). Throws RE2's
 * SyntaxError for a pattern it cannot express; urlPatternProblem says why in plain words.
 */
export function compileUrlPattern(written: string): UrlPattern {
  // 'u': RE2 always reads code points; the flag says so and keeps it from warning.
  const compiled = new RE2(written, 'u');
  return {
    written,
    test: (url) => compiled.test(url),
    exec: (url) => compiled.exec(url),
  };
}
