/**
 * The pieces of text a page's parse hands over, in order, with what each belongs to. A parser
 * calls back once per text node: a source listing of 10 MB of syntax-highlighted HTML is half a
 * million of them, and an object per node held 98 MB of heap for 3 MB of text, more than an
 * analysis thread's share (docs/design/search-engine.md, Memory of indexing). Consecutive pieces
 * alike in everything but their text are kept as one, their text joined.
 */
export class TextPieces<Piece extends { text: string }> {
  private readonly list: Piece[] = [];
  /** The texts of the last piece not joined yet, and the chunks they were joined into. */
  private parts: string[] = [];
  private chunks: string[] = [];

  /** `alike`: whether two pieces may be one (everything but their text the same). */
  constructor(private readonly alike: (last: Piece, next: Piece) => boolean) {}

  add(piece: Piece): void {
    const last = this.list.at(-1);
    if (last !== undefined && this.alike(last, piece)) {
      this.parts.push(piece.text);
      // Joined in chunks: an array of a million short strings is what this class avoids, and
      // joining into one growing string would copy it again at every step.
      if (this.parts.length >= PARTS_PER_CHUNK) {
        this.chunks.push(this.parts.join(''));
        this.parts = [];
      }
      return;
    }
    this.joinLast();
    this.list.push(piece);
    this.parts = [piece.text];
  }

  /** The pieces, each with its whole text; no piece may be added after. */
  pieces(): Piece[] {
    this.joinLast();
    return this.list;
  }

  private joinLast(): void {
    const last = this.list.at(-1);
    if (last === undefined) return;
    if (this.chunks.length > 0 || this.parts.length > 1)
      last.text = this.chunks.join('') + this.parts.join('');
    this.parts = [];
    this.chunks = [];
  }
}

const PARTS_PER_CHUNK = 1024;

/**
 * The code points of `text` left once `others` (global: runs of every character not counted) is
 * taken out: the count of the characters that matter without an array of them, as a joined
 * piece may hold megabytes of text.
 */
export function countOfKept(text: string, others: RegExp): number {
  const kept = text.replace(others, '');
  // A character beyond the BMP is two code units and counts once.
  return HIGH_SURROGATE.test(kept) ? kept.length - (kept.match(SURROGATE_PAIRS)?.length ?? 0) : kept.length;
}

const HIGH_SURROGATE = /[\ud800-\udbff]/;
const SURROGATE_PAIRS = /[\ud800-\udbff][\udc00-\udfff]/g;

/**
 * The code points of `text` that are not white space (as `\s` has it): what `match(/\S/gu)`
 * counts, without an array of them nor a copy of the text. Run over every piece of every page.
 */
export function nonSpaceCount(text: string): number {
  let count = 0;
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code <= 0x20) {
      if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) continue;
    } else if (code >= 0xa0) {
      if (isSpaceAbove(code)) continue;
      // The low half of a pair was counted with its high half.
      if (code >= 0xdc00 && code <= 0xdfff && at > 0 && isHighSurrogate(text.charCodeAt(at - 1))) continue;
    }
    count += 1;
  }
  return count;
}

function isSpaceAbove(code: number): boolean {
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
