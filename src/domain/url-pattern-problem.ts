import { regexSafetyProblem } from './regex-safety.js';
import { regexSyntaxProblem } from './regex-syntax.js';

/**
 * Why a URL pattern (allow / deny / credential pattern of a crawl, category or drill-down rule of
 * a search service) cannot be used: it does not compile, or it could backtrack catastrophically
 * on some URL (docs/api.md, Common rules, Limits). Undefined when it can be used.
 */
export function urlPatternProblem(pattern: string): string | undefined {
  return regexSyntaxProblem(pattern) ?? regexSafetyProblem(pattern);
}
