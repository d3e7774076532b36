/**
 * CSV for people: the one writer every CSV a person downloads to open in a spreadsheet must use
 * (docs/security.md, CSV files and spreadsheets). A spreadsheet runs a cell that starts with `=`,
 * `+`, `-` or `@` (and some also after a tab or carriage return) as a formula, which a crawled
 * site can fill through its headers or link texts. The artifact files (url_list.csv.gz,
 * link_list.csv.gz) are a machine interface and stay verbatim: they use csv.ts.
 */

/** Characters that make a spreadsheet read a cell as a formula, full-width forms included. */
const FORMULA_START = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;
/** A plain number (`-12`, `+3.5`) is no formula: it stays a number for the spreadsheet. */
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;

/** The cell's text as a spreadsheet shows it without running it: a formula start gets a leading `'`. */
export function spreadsheetSafeCell(value: string): string {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}

/**
 * One CSV line of safe cells, every field quoted (a quote inside doubled) and the line ending in
 * CRLF: quoting every field keeps a spreadsheet that splits on `;` or tabs from starting a new,
 * unescaped cell inside one.
 */
export function spreadsheetCsvLine(fields: readonly string[]): string {
  return `${fields.map((field) => `"${spreadsheetSafeCell(field).replaceAll('"', '""')}"`).join(',')}\r\n`;
}

/** The whole file: the header line, then one line per record. */
export function* spreadsheetCsvLines(
  header: readonly string[],
  records: Iterable<readonly string[]>,
): Generator<string> {
  yield spreadsheetCsvLine(header);
  for (const record of records) yield spreadsheetCsvLine(record);
}
