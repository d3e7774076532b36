/**
 * Text normalized as the analyzer does (NFKC, lower case) together with the way back to offsets
 * in the original, so highlights found on normalized text are cut from the text as written. NFKC
 * changes lengths (half-width ｶﾞ is one ガ, ㍻ is 平成), so the original is normalized in units:
 * a character with the combining and sound marks that follow it. A match starting or ending
 * inside a unit's output widens to the whole unit, and no unit is ever cut.
 */
import { charLengthAt } from './char-class.js';

export interface NormalizedText {
  readonly text: string;
  /** Original offset of the unit that holds normalized position `index`. */
  originalStart(index: number): number;
  /** Original offset just past the unit that holds normalized position `index - 1`. */
  originalEnd(index: number): number;
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;
/**
 * Characters NFKC leaves unchanged, lower-cased one for one and combining with nothing that
 * follows but a mark: ASCII, Latin-1 letters, kana, CJK ideographs and common Japanese
 * punctuation, always; in the blocks of STABLE_CANDIDATES, each character that passes
 * stableAlone. Stretches of them are copied whole; only the rest is normalized unit by unit.
 */
const STABLE_RANGES: readonly (readonly [number, number])[] = [
  [0x00, 0x7f],
  [0xc0, 0xff],
  [0x3001, 0x3002],
  [0x3005, 0x3006],
  [0x3008, 0x3011],
  [0x3041, 0x3096],
  [0x309d, 0x309e],
  [0x30a1, 0x30fe],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
];
/**
 * Blocks whose characters are mostly stable and common in documentation (¶ § — “ ” → • π): a
 * single one of them made a page's whole body go unit by unit. Latin-1's symbols, Latin
 * Extended-A and B, Greek, Cyrillic, general punctuation, arrows, mathematical operators,
 * technical symbols, box drawing, geometric shapes and miscellaneous symbols.
 */
export const STABLE_CANDIDATES: readonly (readonly [number, number])[] = [
  [0xa0, 0xbf],
  [0x100, 0x24f],
  [0x370, 0x3ff],
  [0x400, 0x4ff],
  [0x2000, 0x206f],
  [0x2190, 0x23ff],
  [0x2500, 0x26ff],
];
/**
 * What joins the character before it under NFKC: combining marks (U+3099 and U+309A are among
 * them), the half-width sound marks ﾞ ﾟ, and the Hangul vowel and final jamo.
 */
const STARTS_JOINING = /^[\p{M}\uff9e\uff9f\u1160-\u11ff]/u;
/**
 * A table over the BMP: one lookup per code unit is what keeps long bodies cheap.
 */
const STABLE = stableTable();
/**
 * Stretches holding characters outside STABLE_RANGES, found by the regular expression engine,
 * which scans faster than a loop in script (and faster with these few ranges than with the whole
 * table's). Without the u flag the class is over code units; both halves of a surrogate pair are
 * outside it, so a stretch never splits one.
 */
const UNSTABLE_STRETCH = new RegExp(
  `[^${STABLE_RANGES.map(([first, last]) => `${codeUnitEscape(first)}-${codeUnitEscape(last)}`).join('')}]+`,
  'g',
);
/** Units seen before: full-width and half-width characters repeat through a page. */
const unitCache = new Map<string, string>();
const UNIT_CACHE_LIMIT = 4096;

/** Whether the character at `index` would join the one before it (a cut there splits a unit). */
export function joinsPrevious(text: string, index: number): boolean {
  if (index <= 0 || index >= text.length) return false;
  const code = text.charCodeAt(index);
  // No mark is below U+0300 or among the stable characters.
  if (code < 0x300 || STABLE[code] === 1) return false;
  return STARTS_JOINING.test(text.slice(index, index + 2));
}

/** NFKC and lower case, as `normalizeText`, with offsets back into `original`. */
export function normalizeWithOffsets(original: string): NormalizedText {
  // Most pages are ASCII: lower case is then all NFKC would change, one for one.
  if (ASCII_ONLY.test(original)) return new IdentityText(original.toLowerCase());
  const builder = new SegmentsBuilder();
  let copied = 0;
  UNSTABLE_STRETCH.lastIndex = 0;
  for (
    let stretch = UNSTABLE_STRETCH.exec(original);
    stretch !== null;
    stretch = UNSTABLE_STRETCH.exec(original)
  ) {
    const stretchEnd = stretch.index + stretch[0].length;
    // Characters of the wider table (§ — “ →) stay with the stable text around them.
    for (let index = stretch.index; index < stretchEnd;) {
      if (STABLE[original.charCodeAt(index)] === 1) {
        index += 1;
        continue;
      }
      let end = index + 1;
      while (end < stretchEnd && STABLE[original.charCodeAt(end)] !== 1) end += 1;
      copied = normalizeUnits(builder, original, copied, index, end);
      index = end;
    }
  }
  if (copied === 0) return new IdentityText(original.toLowerCase());
  if (copied < original.length) builder.add(copied, original.slice(copied));
  return builder.finish(original.length);
}

/**
 * Adds the text copied since `copied`, then the units of [start, end), a stretch of characters
 * outside the table; returns where copying goes on.
 */
function normalizeUnits(
  builder: SegmentsBuilder,
  original: string,
  copied: number,
  start: number,
  end: number,
): number {
  let index = start;
  // A mark opening the stretch belongs with the stable character before it (か + U+3099 is が).
  if (index > copied && joinsPrevious(original, index)) index -= 1;
  if (index > copied) builder.add(copied, original.slice(copied, index));
  while (index < end) {
    let unitEnd = index + charLengthAt(original, index);
    while (joinsPrevious(original, unitEnd)) unitEnd += charLengthAt(original, unitEnd);
    const unit = original.slice(index, unitEnd);
    builder.addUnit(index, unit, normalizedUnit(unit));
    index = unitEnd;
  }
  return index;
}

/**
 * A character copied with its neighbours gives, once the stretch is lower-cased whole, what it
 * gives normalized alone: NFKC leaves it as it is, its lower case is one code unit that NFKC
 * leaves too, and it is no mark or jamo that NFKC would join to the character before. Σ is
 * left out: lower-cased in a stretch it becomes ς at a word's end, alone always σ.
 */
function stableAlone(code: number): boolean {
  const character = String.fromCharCode(code);
  const lower = character.toLowerCase();
  return (
    code !== 0x3a3 &&
    character.normalize('NFKC') === character &&
    lower.length === 1 &&
    lower.normalize('NFKC') === lower &&
    !STARTS_JOINING.test(character)
  );
}

function stableTable(): Uint8Array {
  const table = new Uint8Array(0x10000);
  for (const [first, last] of STABLE_RANGES) table.fill(1, first, last + 1);
  for (const [first, last] of STABLE_CANDIDATES)
    for (let code = first; code <= last; code += 1) if (stableAlone(code)) table[code] = 1;
  return table;
}

function codeUnitEscape(code: number): string {
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

function normalizedUnit(unit: string): string {
  let normalized = unitCache.get(unit);
  if (normalized === undefined) {
    normalized = unit.normalize('NFKC').toLowerCase();
    if (unitCache.size >= UNIT_CACHE_LIMIT) unitCache.clear();
    unitCache.set(unit, normalized);
  }
  return normalized;
}

/** Normalized text as long as the original, offset for offset. */
class IdentityText implements NormalizedText {
  constructor(readonly text: string) {}

  originalStart(index: number): number {
    return index;
  }

  originalEnd(index: number): number {
    return index;
  }
}

/**
 * Segments of normalized text, each either copied one for one from the original (possibly
 * changed character for character, as Ａ to a) or the output of one unit that changed length.
 */
class SegmentedText implements NormalizedText {
  constructor(
    readonly text: string,
    /** Normalized start of each segment, then the normalized length. */
    private readonly normalizedStarts: number[],
    /** Original start of each segment, then the original length. */
    private readonly originalStarts: number[],
    private readonly oneForOne: boolean[],
  ) {}

  originalStart(index: number): number {
    if (index >= this.text.length) return this.originalStarts[this.originalStarts.length - 1]!;
    const segment = this.segmentAt(index);
    const start = this.originalStarts[segment]!;
    return this.oneForOne[segment] ? start + index - this.normalizedStarts[segment]! : start;
  }

  originalEnd(index: number): number {
    if (index <= 0) return 0;
    const segment = this.segmentAt(index - 1);
    return this.oneForOne[segment]
      ? this.originalStarts[segment]! + index - this.normalizedStarts[segment]!
      : this.originalStarts[segment + 1]!;
  }

  /** The last segment starting at or before `index` (binary search). */
  private segmentAt(index: number): number {
    let low = 0;
    let high = this.oneForOne.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.normalizedStarts[middle]! <= index) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}

class SegmentsBuilder {
  private readonly pieces: string[] = [];
  private readonly normalizedStarts: number[] = [];
  private readonly originalStarts: number[] = [];
  private readonly oneForOne: boolean[] = [];
  private length = 0;

  /** Text whose offsets map one for one onto the original from `originalStart`. */
  add(originalStart: number, normalized: string): void {
    const last = this.oneForOne.length - 1;
    const continues =
      last >= 0 &&
      this.oneForOne[last] === true &&
      this.originalStarts[last]! + this.length - this.normalizedStarts[last]! === originalStart;
    if (!continues) this.startSegment(originalStart, true);
    this.pieces.push(normalized);
    this.length += normalized.length;
  }

  addUnit(originalStart: number, unit: string, normalized: string): void {
    // Ａ to a, or an emoji left as it is: offsets still map one for one. A unit with marks never
    // does, even unchanged: a match must not end between a character and its mark.
    const singleCodePoint = unit.length === 1 || (unit.length === 2 && unit.codePointAt(0)! > 0xffff);
    if (singleCodePoint && normalized.length === unit.length && (unit.length === 1 || normalized === unit)) {
      this.add(originalStart, normalized);
      return;
    }
    this.startSegment(originalStart, false);
    this.pieces.push(normalized);
    this.length += normalized.length;
  }

  finish(originalLength: number): SegmentedText {
    this.normalizedStarts.push(this.length);
    this.originalStarts.push(originalLength);
    return new SegmentedText(
      // Stable pieces are lower-cased here, in one call; units already are, and stay as they are.
      this.pieces.join('').toLowerCase(),
      this.normalizedStarts,
      this.originalStarts,
      this.oneForOne,
    );
  }

  private startSegment(originalStart: number, oneForOne: boolean): void {
    this.normalizedStarts.push(this.length);
    this.originalStarts.push(originalStart);
    this.oneForOne.push(oneForOne);
  }
}
