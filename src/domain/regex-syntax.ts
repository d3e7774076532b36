/**
 * Why `pattern` does not compile as `new RegExp(pattern)`, as a reason that follows the field name
 * in an error body: `setting.allow_urls_patterns[0]: is not a valid regular expression
 * (unterminated group)`.
 */
export function regexSyntaxProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
  } catch (error) {
    return `is not a valid regular expression (${regexErrorDetail((error as Error).message)})`;
  }
  return undefined;
}

/**
 * What is wrong with a pattern, without the "Invalid regular expression: /<pattern>/: " prefix
 * V8 and the regexpp parser both put before it (the field already names the pattern, and the
 * reason already says it is not a valid regular expression): "Unterminated group" becomes
 * "unterminated group".
 */
export function regexErrorDetail(message: string): string {
  const match = /^Invalid regular expression: \/[\s\S]*\/[a-z]*: ([\s\S]+)$/.exec(message);
  const detail = match?.[1] ?? message;
  return detail.charAt(0).toLowerCase() + detail.slice(1);
}
