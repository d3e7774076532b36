import { type AST, RegExpParser } from '@eslint-community/regexpp';
import { regexErrorDetail } from './regex-syntax.js';

/**
 * A conservative test against catastrophic backtracking of the URL patterns tenants and operators
 * give (allow / deny / credential patterns of a crawl, category and drill-down rules of a search
 * service): every one of them runs on every URL a crawl meets or indexes, in a worker that a
 * single exponential match would stall.
 *
 * No npm checker fitted: safe-regex2 counts star height only (it misses `(a|aa)*` and
 * backreferences, and refuses common patterns such as `^https://([a-z0-9-]+\.)*example\.com/` and
 * any lookbehind), recheck is tens of MB, takes 10-150 ms per pattern and hung on `(\1a)*`, and
 * scslre judges unanchored matches so precisely that it passes `(a|aa)*`. This walks the syntax
 * tree of ESLint's own parser (@eslint-community/regexpp, the syntax `new RegExp(pattern)` accepts
 * without flags) and refuses, inside any group repeated more than once:
 *
 * - a backreference (`(\1a)*`);
 * - another quantifier of varying count (`(a+)+`, `(a*)*b`, `(.*a){20}`, `(a{1,5})+`), unless the
 *   group is a plain delimited segment such as `(/[^/]+)*` or `([a-z0-9-]+\.)*`: one mandatory
 *   delimiter character first or last that nothing else in the group can match, single characters
 *   or classes otherwise, and one varying quantifier at most, so each repetition is cut at the
 *   delimiters one way only;
 * - alternatives that can begin with the same character or match nothing (`(a|aa)*`, `(a|)+`).
 *
 * Without such a group matching is polynomial, and it also refuses a degree of 3 or more: three
 * long quantifiers in a row that one repeated character can flow through (`^(.*)/(.*)/(.*)$`), or
 * two in a pattern without `^`, which is tried at every start position (`.*[?].*=`, `a*aa*$`).
 * A quadratic pattern such as the common `.*[.]html$` stays allowed (milliseconds on a URL of
 * 2,000 characters).
 *
 * A pattern it refuses may still be safe (it cannot prove every safe form): the reason says how
 * to write it instead.
 */

/** Longest pattern accepted (allow / deny patterns; the schema states the same limit). */
export const MAX_URL_PATTERN_LENGTH = 1000;
/** Most allow or deny patterns of one setting. */
export const MAX_URL_PATTERNS = 100;

const EXPONENTIAL = 'the pattern can take exponential time on some URLs and stall a crawl';
/**
 * Patterns whose matching time grows with this power of the URL length or more are refused: a
 * cubic one already takes seconds on a URL of 2,000 characters, a quadratic one milliseconds.
 */
const MAX_POLYNOMIAL_DEGREE = 3;
/** A quantifier allowing more repetitions than this counts as long (`*`, `+`, `{0,100}`). */
const LONG_QUANTIFIER = 10;

/**
 * Why `pattern` can backtrack catastrophically, or undefined when it passes the test. Call it on
 * a pattern `new RegExp(pattern)` accepts (check that first: an invalid pattern answers a reason
 * about the syntax).
 */
export function regexSafetyProblem(pattern: string): string | undefined {
  let ast: AST.Pattern;
  try {
    ast = new RegExpParser({ ecmaVersion: 2025 }).parsePattern(pattern, 0, pattern.length, {
      unicode: false,
      unicodeSets: false,
    });
  } catch (error) {
    return `cannot be checked for catastrophic backtracking (${regexErrorDetail((error as Error).message)})`;
  }
  const analysis = new Analysis(hasCaseInsensitiveModifier(ast));
  return analysis.problemIn(ast);
}

type Ranges = readonly (readonly [number, number])[];

const MAX_CODE_POINT = 0x10ffff;
const ALL: Ranges = [[0, MAX_CODE_POINT]];
const DIGIT: Ranges = [[0x30, 0x39]];
const WORD: Ranges = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
const SPACE: Ranges = normalize([
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]);
/** `.` without the s flag: anything but a line terminator. */
const DOT: Ranges = negate(
  normalize([
    [0x0a, 0x0a],
    [0x0d, 0x0d],
    [0x2028, 0x2029],
  ]),
);

function normalize(ranges: readonly (readonly [number, number])[]): Ranges {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const result: [number, number][] = [];
  for (const [low, high] of sorted) {
    const last = result[result.length - 1];
    if (last !== undefined && low <= last[1] + 1) last[1] = Math.max(last[1], high);
    else result.push([low, high]);
  }
  return result;
}

function union(a: Ranges, b: Ranges): Ranges {
  return normalize([...a, ...b]);
}

function negate(ranges: Ranges): Ranges {
  const result: [number, number][] = [];
  let next = 0;
  for (const [low, high] of ranges) {
    if (low > next) result.push([next, low - 1]);
    next = high + 1;
  }
  if (next <= MAX_CODE_POINT) result.push([next, MAX_CODE_POINT]);
  return result;
}

function contains(ranges: Ranges, c: number): boolean {
  return ranges.some(([low, high]) => low <= c && c <= high);
}

function intersects(a: Ranges, b: Ranges): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x[1] < y[0]) i++;
    else if (y[1] < x[0]) j++;
    else return true;
  }
  return false;
}

type CharMatcher = AST.Character | AST.CharacterClass | AST.CharacterSet;

function isCharMatcher(node: AST.Node): node is CharMatcher {
  return node.type === 'Character' || node.type === 'CharacterClass' || node.type === 'CharacterSet';
}

/** A quantifier whose count varies (`*`, `+`, `?`, `{1,3}`): the source of ambiguity. */
function isVarying(node: AST.Quantifier): boolean {
  return node.min !== node.max;
}

/** A quantifier that repeats its element more than once. */
function isRepeating(node: AST.Quantifier): boolean {
  return node.max >= 2;
}

function hasCaseInsensitiveModifier(ast: AST.Pattern): boolean {
  let found = false;
  walk(ast, (node) => {
    if (node.type === 'ModifierFlags' && node.ignoreCase) found = true;
  });
  return found;
}

/** Visits `node` and everything below it, depth first. */
function walk(node: AST.Node, visit: (node: AST.Node) => void): void {
  visit(node);
  for (const child of childrenOf(node)) walk(child, visit);
}

function childrenOf(node: AST.Node): readonly AST.Node[] {
  switch (node.type) {
    case 'Pattern':
    case 'CapturingGroup':
    case 'Group':
      return node.type === 'Group' && node.modifiers
        ? [node.modifiers, ...node.alternatives]
        : node.alternatives;
    case 'Assertion':
      return node.kind === 'lookahead' || node.kind === 'lookbehind' ? node.alternatives : [];
    case 'Alternative':
      return node.elements;
    case 'Quantifier':
      return [node.element];
    case 'Modifiers':
      return node.add ? [node.add, ...(node.remove ? [node.remove] : [])] : [];
    default:
      return [];
  }
}

class Analysis {
  constructor(
    /** A `(?i:...)` group (newer engines): letters then match both cases, so classes are not compared. */
    private readonly caseFolded: boolean,
  ) {}

  /** The first unsafe repetition of the pattern, as a reason. */
  problemIn(ast: AST.Pattern): string | undefined {
    let problem: string | undefined;
    walk(ast, (node) => {
      if (problem === undefined && node.type === 'Quantifier' && isRepeating(node)) {
        problem = this.repetitionProblem(node);
      }
    });
    if (problem !== undefined) return problem;
    // An unanchored pattern is tried at every position of the URL: one more factor of its length.
    const anchored = ast.alternatives.every((alternative) => {
      const first = alternative.elements[0];
      return first?.type === 'Assertion' && first.kind === 'start';
    });
    walk(ast, (node) => {
      if (problem !== undefined || node.type !== 'Alternative') return;
      const chain = this.longestTradingChain(node);
      const degree = chain.length + (anchored ? 0 : 1);
      if (degree >= MAX_POLYNOMIAL_DEGREE) {
        const quantifiers = chain.map((quantifier) => `"${excerpt(quantifier.raw)}"`).join(', ');
        problem =
          `${quantifiers} can trade the same characters${anchored ? '' : ' at every start position'}: ` +
          `the pattern can take time growing with the power ${degree} of the URL length and stall a crawl; ` +
          `${anchored ? '' : 'anchor it with ^ or '}use classes that stop at the next delimiter, such as "[^/]*"`;
      }
    });
    return problem;
  }

  /**
   * The longest run of long quantifiers of one sequence that a single repeated character can
   * flow through (both stars of `^.*[/].*x` for "/", of `a*aa*` for "a"): everything between them matches that
   * character too, so an input of that character splits among them in n^k ways. The degree is
   * approximate: what follows the run may make every split succeed at once.
   */
  private longestTradingChain(alternative: AST.Alternative): AST.Node[] {
    type Item = { node: AST.Node; chars: Ranges; kind: 'long' | 'passes' | 'transparent' };
    const items: Item[] = [];
    for (const node of flattenElements(alternative.elements)) {
      if (node.type === 'Assertion' || node.type === 'Backreference') {
        items.push({ node, chars: [], kind: 'transparent' });
      } else if (containsLongQuantifier(node)) {
        items.push({ node, chars: this.consumableChars(node), kind: 'long' });
      } else if (node.type === 'Quantifier' && node.min === 0) {
        items.push({ node, chars: [], kind: 'transparent' });
      } else {
        items.push({ node, chars: this.consumableChars(node), kind: 'passes' });
      }
    }
    const longs = items.filter((item) => item.kind === 'long');
    if (longs.length < MAX_POLYNOMIAL_DEGREE - 1) return longs.length > 0 ? [longs[0]!.node] : [];
    // Every character class of the sequence starts at one of these points: one candidate each.
    const candidates = new Set<number>();
    for (const item of items) for (const [low, high] of item.chars) candidates.add(low).add(high + 1);
    let best: AST.Node[] = [];
    for (const c of candidates) {
      if (!longs.some((item) => contains(item.chars, c))) continue;
      let chain: AST.Node[] = [];
      for (const item of items) {
        if (item.kind === 'transparent') continue;
        if (!contains(item.chars, c)) chain = [];
        else if (item.kind === 'long') chain.push(item.node);
        if (chain.length > best.length) best = [...chain];
      }
    }
    return best;
  }

  /** Every character `node` can consume anywhere inside it. */
  private consumableChars(node: AST.Node): Ranges {
    let chars: Ranges = [];
    walk(node, (inner) => {
      if (isCharMatcher(inner)) chars = union(chars, this.charsOf(inner));
      else if (inner.type === 'Backreference') chars = ALL;
    });
    return chars;
  }

  private repetitionProblem(repetition: AST.Quantifier): string | undefined {
    const inside: AST.Node[] = [];
    walk(repetition.element, (node) => inside.push(node));
    const group = `"${excerpt(repetition.raw)}"`;
    if (inside.some((node) => node.type === 'Backreference')) {
      return `a backreference inside the repeated group ${group}: ${EXPONENTIAL}`;
    }
    const varying = inside.filter(
      (node): node is AST.Quantifier => node.type === 'Quantifier' && isVarying(node),
    );
    if (varying.length > 0 && !this.isDelimitedSegment(repetition.element)) {
      return (
        `nested quantifiers in ${group}: ${EXPONENTIAL}; repeat only a segment that starts or ends ` +
        'with a delimiter its other parts cannot match, such as "(/[^/]+)*"'
      );
    }
    for (const node of inside) {
      if ((node.type === 'Group' || node.type === 'CapturingGroup') && node.alternatives.length > 1) {
        const reason = this.alternationProblem(node);
        if (reason !== undefined) {
          return `alternatives in the repeated group ${group} ${reason}: ${EXPONENTIAL}`;
        }
      }
    }
    return undefined;
  }

  /**
   * `(/[^/]+)`, `([a-z0-9-]+\.)`, `(\d{1,3}\.)`: single characters or classes only, a mandatory
   * delimiter first or last that no other part can match, and one varying quantifier at most.
   */
  private isDelimitedSegment(element: AST.Node): boolean {
    const parts = flattenSequence(element);
    if (parts === undefined || parts.length < 2) return false;
    const matchers: { chars: Ranges; varying: boolean; mandatorySingle: boolean }[] = [];
    for (const part of parts) {
      if (isCharMatcher(part)) {
        matchers.push({ chars: this.charsOf(part), varying: false, mandatorySingle: true });
      } else if (part.type === 'Quantifier' && isCharMatcher(part.element)) {
        matchers.push({
          chars: this.charsOf(part.element),
          varying: isVarying(part),
          mandatorySingle: false,
        });
      } else {
        return false;
      }
    }
    if (matchers.filter((matcher) => matcher.varying).length > 1) return false;
    const delimitedBy = (index: number): boolean => {
      const delimiter = matchers[index]!;
      if (!delimiter.mandatorySingle) return false;
      return matchers.every((other, at) => at === index || !intersects(other.chars, delimiter.chars));
    };
    return delimitedBy(0) || delimitedBy(matchers.length - 1);
  }

  /** Why the alternatives of a repeated group are ambiguous, or undefined when the next character picks one. */
  private alternationProblem(group: AST.Group | AST.CapturingGroup): string | undefined {
    let seen: Ranges = [];
    for (const alternative of group.alternatives) {
      const first = this.firstChars(alternative.elements);
      if (first.nullable) return 'can match nothing';
      if (intersects(seen, first.chars)) return 'can begin with the same character';
      seen = union(seen, first.chars);
    }
    return undefined;
  }

  /** The characters a sequence can begin with, and whether it can match the empty string. */
  private firstChars(elements: readonly AST.Node[]): { chars: Ranges; nullable: boolean } {
    let chars: Ranges = [];
    for (const element of elements) {
      const first = this.firstCharsOf(element);
      chars = union(chars, first.chars);
      if (!first.nullable) return { chars, nullable: false };
    }
    return { chars, nullable: true };
  }

  private firstCharsOf(node: AST.Node): { chars: Ranges; nullable: boolean } {
    if (isCharMatcher(node)) return { chars: this.charsOf(node), nullable: false };
    switch (node.type) {
      case 'Quantifier': {
        if (node.max === 0) return { chars: [], nullable: true };
        const inner = this.firstCharsOf(node.element);
        return { chars: inner.chars, nullable: inner.nullable || node.min === 0 };
      }
      case 'Group':
      case 'CapturingGroup': {
        let chars: Ranges = [];
        let nullable = false;
        for (const alternative of node.alternatives) {
          const first = this.firstChars(alternative.elements);
          chars = union(chars, first.chars);
          nullable ||= first.nullable;
        }
        return { chars, nullable };
      }
      case 'Assertion':
        return { chars: [], nullable: true };
      default:
        // Backreferences (refused before this is asked) and anything unforeseen: any character.
        return { chars: ALL, nullable: true };
    }
  }

  private charsOf(node: CharMatcher): Ranges {
    if (this.caseFolded) return ALL;
    switch (node.type) {
      case 'Character':
        return [[node.value, node.value]];
      case 'CharacterSet':
        return setChars(node);
      case 'CharacterClass': {
        let chars: Ranges = [];
        for (const element of node.elements) {
          if (element.type === 'Character') chars = union(chars, [[element.value, element.value]]);
          else if (element.type === 'CharacterClassRange')
            chars = union(chars, [[element.min.value, element.max.value]]);
          else if (element.type === 'CharacterSet') chars = union(chars, setChars(element));
          else chars = ALL; // unicode-sets syntax: not reachable without the v flag
        }
        return node.negate ? negate(chars) : chars;
      }
    }
  }
}

function setChars(node: AST.CharacterSet): Ranges {
  switch (node.kind) {
    case 'any':
      return DOT;
    case 'digit':
      return node.negate ? negate(DIGIT) : DIGIT;
    case 'word':
      return node.negate ? negate(WORD) : WORD;
    case 'space':
      return node.negate ? negate(SPACE) : SPACE;
    default:
      return ALL; // \p{...}: only with the u flag
  }
}

/** A sequence with its groups of one alternative opened (`(.*)/(.*)` is `.*`, `/`, `.*`). */
function flattenElements(elements: readonly AST.Node[]): AST.Node[] {
  return elements.flatMap((element) => flattenSequence(element) ?? [element]);
}

/** Whether a quantifier that can repeat more than a few times is in `node` (or is `node`). */
function containsLongQuantifier(node: AST.Node): boolean {
  let found = false;
  walk(node, (inner) => {
    if (inner.type === 'Quantifier' && inner.max > LONG_QUANTIFIER) found = true;
  });
  return found;
}

/** The elements of a group with one alternative (through nested such groups), in order. */
function flattenSequence(node: AST.Node): AST.Node[] | undefined {
  if (node.type === 'Group' || node.type === 'CapturingGroup') {
    if (node.alternatives.length !== 1 || (node.type === 'Group' && node.modifiers)) return undefined;
    const result: AST.Node[] = [];
    for (const element of node.alternatives[0]!.elements) {
      const inner = flattenSequence(element);
      if (inner === undefined) return undefined;
      result.push(...inner);
    }
    return result;
  }
  return [node];
}

function excerpt(raw: string): string {
  return raw.length <= 60 ? raw : `${raw.slice(0, 57)}...`;
}
