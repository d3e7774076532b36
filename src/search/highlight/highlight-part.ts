/** A piece of displayed text; the pieces of a field, joined, are the text exactly. */
export interface HighlightPart {
  is_highlighted: boolean;
  text: string;
}

/** A highlighted range of the original text, [start, end). */
export interface TextRange {
  start: number;
  end: number;
}

/**
 * The parts of `text` between `from` and `to`, with `ranges` (sorted by start, possibly
 * overlapping or outside the window) highlighted. Ranges that overlap or touch make one part;
 * no part is empty.
 */
export function partsOf(
  text: string,
  ranges: readonly TextRange[],
  from = 0,
  to = text.length,
): HighlightPart[] {
  const parts: HighlightPart[] = [];
  let written = from;
  let open: TextRange | undefined;
  const flush = (range: TextRange): void => {
    if (range.start > written) parts.push({ is_highlighted: false, text: text.slice(written, range.start) });
    parts.push({ is_highlighted: true, text: text.slice(range.start, range.end) });
    written = range.end;
  };
  for (const range of ranges) {
    const start = Math.max(range.start, from);
    const end = Math.min(range.end, to);
    if (start >= end) continue;
    if (open !== undefined && start <= open.end) {
      open.end = Math.max(open.end, end);
      continue;
    }
    if (open !== undefined) flush(open);
    open = { start, end };
  }
  if (open !== undefined) flush(open);
  if (to > written) parts.push({ is_highlighted: false, text: text.slice(written, to) });
  return parts;
}
