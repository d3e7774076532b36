/** East Asian wide and fullwidth characters, which a terminal draws two columns wide. */
const WIDE =
  /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{20000}-\u{3FFFD}]/u;

/** Columns `text` takes in a terminal. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += WIDE.test(char) ? 2 : 1;
  return width;
}

/**
 * `text` padded with spaces to `width` columns, so Japanese queries line up with English ones;
 * text as wide or wider still gets two spaces, keeping it apart from the next column.
 */
export function padColumns(text: string, width: number): string {
  const used = displayWidth(text);
  return `${text}${' '.repeat(used >= width ? 2 : width - used)}`;
}
