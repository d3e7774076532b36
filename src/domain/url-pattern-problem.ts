import {
  compileUrlPattern,
  MAX_PATTERN_INSTRUCTIONS,
  PatternTooLargeError,
  type UrlPattern,
} from './url-pattern.js';

const NO_LOOKAROUND = '(patterns use RE2 syntax: no lookaround or backreferences)';
const NO_ATOMIC = '(patterns use RE2 syntax: no atomic groups or possessive quantifiers)';

/** Constructs of JavaScript (and Perl) regular expressions RE2 has no linear-time way to run. */
const UNSUPPORTED_GROUPS: Readonly<Record<string, string>> = {
  '(?=': `lookahead "(?=" is not supported ${NO_LOOKAROUND}`,
  '(?!': `negative lookahead "(?!" is not supported ${NO_LOOKAROUND}`,
  '(?<=': `lookbehind "(?<=" is not supported ${NO_LOOKAROUND}`,
  '(?<!': `negative lookbehind "(?<!" is not supported ${NO_LOOKAROUND}`,
  '(?>': `atomic group "(?>" is not supported ${NO_ATOMIC}`,
};

/**
 * RE2's reasons (the part before ": <excerpt>") in the words the API used before, where JavaScript
 * has the same error (docs/api.md, Common rules, Errors).
 */
const PLAIN_REASONS: Readonly<Record<string, string>> = {
  'missing )': 'unterminated group',
  'missing ]': 'unterminated character class',
  'no argument for repetition operator': 'nothing to repeat',
  'unexpected )': 'unmatched ")"',
  'trailing \\': '"\\" at end of pattern',
  'duplicate capture group name': 'duplicate capture group name',
  'pattern too large - compile failed':
    'pattern too large for the matching engine (a large class or group repeated many times)',
};

/**
 * Why a URL pattern (allow / deny / credential pattern of a crawl, category or drill-down rule of
 * a search service) cannot be used, as a reason that follows the field name in an error body:
 * `setting.allow_urls_patterns[0]: lookahead "(?=" is not supported (patterns use RE2 syntax: no
 * lookaround or backreferences)`. Undefined when it can be used (docs/api.md, Common rules).
 */
export function urlPatternProblem(pattern: string): string | undefined {
  try {
    compileUrlPattern(pattern);
    return undefined;
  } catch (error) {
    return reasonOf(error);
  }
}

/** An RE2 compile error ("invalid perl operator: (?=") or the size budget's refusal in plain words. */
function reasonOf(error: unknown): string {
  if (error instanceof PatternTooLargeError)
    return (
      `is too large: it compiles to ${error.instructions} instructions, the limit is ` +
      `${MAX_PATTERN_INSTRUCTIONS} (write counted repetitions like {0,1000} and long alternations more simply)`
    );
  const message = error instanceof Error ? error.message : String(error);
  const split = message.indexOf(': ');
  const code = split < 0 ? message : message.slice(0, split);
  const excerpt = split < 0 ? '' : message.slice(split + 2);
  if (code === 'invalid perl operator') {
    const known = UNSUPPORTED_GROUPS[excerpt];
    if (known !== undefined) return known;
    return `group syntax "${excerpt}" is not supported (patterns use RE2 syntax)`;
  }
  if (code === 'invalid escape sequence') {
    if (/^\\[1-9]/.test(excerpt)) return `backreference "${excerpt}" is not supported ${NO_LOOKAROUND}`;
    if (excerpt === '\\k') return `named backreference "\\k<name>" is not supported ${NO_LOOKAROUND}`;
  }
  // `a++`, `a*+`, `a{2}+`: a repetition followed by "+" (RE2 reads `a{,2}+` as literal text).
  if (code === 'bad repetition operator' && /^(?:[*+?]|\{[\d,]*\})\+$/.test(excerpt))
    return `possessive quantifier "${excerpt}" is not supported ${NO_ATOMIC}`;
  if (code === 'invalid repetition size')
    return `is not a valid regular expression (repetition count "${excerpt}" is out of order or over 1000; counts of nested repetitions multiply)`;
  const plain = PLAIN_REASONS[code];
  if (plain !== undefined) return `is not a valid regular expression (${plain})`;
  return `is not a valid regular expression (${code}${excerpt === '' ? '' : ` "${excerpt}"`})`;
}

/**
 * A pattern of a setting stored before patterns ran on RE2 that RE2 cannot express: the run of
 * that setting ends 2040 with this message (docs/reference/run-states.md).
 */
export class UnsupportedUrlPatternError extends Error {
  override name = 'UnsupportedUrlPatternError';

  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

/** Compiles the pattern of `field`, or throws UnsupportedUrlPatternError naming the field. */
export function compileFieldPattern(field: string, pattern: string): UrlPattern {
  try {
    return compileUrlPattern(pattern);
  } catch (error) {
    throw new UnsupportedUrlPatternError(field, reasonOf(error));
  }
}
