import type { AnalyzedText } from './analyzer.js';
import type { AnalyzedPage } from './document-fields.js';
import type { LinedText, LineSpans } from './template-split.js';

/**
 * Analyzed pages as the analysis threads send them (analysis-pool.ts): each distinct token once,
 * and the fields as token numbers. Sent as arrays of strings, every occurrence of every token
 * became a string of its own on the receiving thread, each hashed again when the segment was
 * built; decoded from this form, the occurrences of a token share one string.
 */
export interface PackedPages {
  tokens: string[];
  /**
   * Per page: its field count, then per field its stream length, its words length, and the
   * token numbers of the stream and of the words.
   */
  layout: Uint32Array;
  /** Per page, per field: the line record of a field analyzed by lines (the body), else null. */
  lines: (LineSpans | null)[][];
  phrases: Uint8Array[];
}

export function packPages(pages: readonly AnalyzedPage[]): PackedPages {
  const numbers = new Map<string, number>();
  const tokens: string[] = [];
  let size = 0;
  for (const page of pages) {
    size += 1;
    for (const field of page.fields) size += 2 + field.stream.length + field.words.length;
  }
  const layout = new Uint32Array(size);
  let at = 0;
  const put = (token: string) => {
    let number = numbers.get(token);
    if (number === undefined) {
      number = tokens.length;
      numbers.set(token, number);
      tokens.push(token);
    }
    layout[at++] = number;
  };
  for (const page of pages) {
    layout[at++] = page.fields.length;
    for (const field of page.fields) {
      layout[at++] = field.stream.length;
      layout[at++] = field.words.length;
      for (const token of field.stream) put(token);
      for (const token of field.words) put(token);
    }
  }
  const lines = pages.map((page) => page.fields.map((field) => linesOf(field) ?? null));
  return { tokens, layout, lines, phrases: pages.map((page) => page.phrases) };
}

export function unpackPages(packed: PackedPages): AnalyzedPage[] {
  const { tokens, layout } = packed;
  let at = 0;
  const take = (count: number): string[] => {
    const taken = new Array<string>(count);
    for (let index = 0; index < count; index += 1) taken[index] = tokens[layout[at++]!]!;
    return taken;
  };
  return packed.phrases.map((phrases, page) => {
    const fieldCount = layout[at++]!;
    const fields: AnalyzedText[] = [];
    for (let field = 0; field < fieldCount; field += 1) {
      const streamLength = layout[at++]!;
      const wordsLength = layout[at++]!;
      const stream = take(streamLength);
      const words = take(wordsLength);
      const lines = packed.lines[page]![field];
      const text: AnalyzedText | LinedText = lines ? { stream, words, lines } : { stream, words };
      fields.push(text);
    }
    return { fields, phrases };
  });
}

function linesOf(field: AnalyzedText): LineSpans | undefined {
  return (field as { lines?: LineSpans }).lines;
}
