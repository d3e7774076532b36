/** The non-empty lines of a text box, trimmed: lists are edited one item per line. */
export function textLines(value: string): string[] {
  return value
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}
