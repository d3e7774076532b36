/** Line-ending characters: they end a paragraph, so they survive collapsing as '\n'. */
const LINE_END = /[\n\r\v\f\u2028\u2029]/u;
/** Control characters other than whitespace: binary formats leave field and cell marks in their text. */
const CONTROLS = /(?!\s)\p{Cc}/gu;

/**
 * Collects extracted text with whitespace collapsed, and stops taking text once its character budget
 * or its time budget is spent, so that extractors can stop reading a huge document early.
 */
export class TextSink {
  private readonly parts: string[] = [];
  private length = 0;
  private pending: '' | ' ' | '\n' = '';
  private truncated = false;

  constructor(
    private readonly maxChars: number,
    /** Date.now() after which no more text is wanted. */
    private readonly deadline = Number.POSITIVE_INFINITY,
  ) {}

  /** True once nothing more will be kept: the text is full or time is up. */
  get exhausted(): boolean {
    return this.truncated || Date.now() > this.deadline;
  }

  /** Adds text that runs on from what came before; its own whitespace is collapsed. */
  text(value: string): void {
    if (this.truncated) return;
    for (const piece of value.replace(CONTROLS, ' ').split(/(\s+)/u)) {
      if (piece === '') continue;
      if (/^\s/u.test(piece)) this.gap(LINE_END.test(piece) ? '\n' : ' ');
      else this.word(piece);
    }
  }

  /** Separates what follows by a space, unless a line break already does. */
  space(): void {
    this.gap(' ');
  }

  /** Ends a paragraph, row, page or slide. */
  lineBreak(): void {
    this.gap('\n');
  }

  toString(): string {
    return this.parts.join('');
  }

  private gap(kind: ' ' | '\n'): void {
    if (this.length === 0) return;
    if (kind === '\n' || this.pending === '') this.pending = kind;
  }

  private word(word: string): void {
    let piece = this.pending + word;
    this.pending = '';
    const room = this.maxChars - this.length;
    if (piece.length > room) {
      piece = piece.slice(0, room);
      // A cut between the halves of a surrogate pair would leave half a character.
      if (/[\ud800-\udbff]$/u.test(piece)) piece = piece.slice(0, -1);
      piece = piece.trimEnd();
      this.truncated = true;
    }
    this.parts.push(piece);
    this.length += piece.length;
  }
}

/** Whitespace-collapsed text, at most maxChars long. */
export function collapsedText(value: string, maxChars: number): string {
  const sink = new TextSink(maxChars);
  sink.text(value);
  return sink.toString();
}
