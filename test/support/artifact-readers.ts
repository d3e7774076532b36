/**
 * Readers of the crawl artifacts (docs/reference/artifacts.md) for tests: the gzip CSV lists and the
 * tar.gz bundle, read back with libraries independent of the code that wrote them.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { createGunzip, gunzipSync } from 'node:zlib';
import { extract } from 'tar-stream';

/** A gzip CSV file as its header and rows (RFC 4180: CRLF records, fields quoted when needed). */
export interface CsvFile {
  header: string[];
  rows: string[][];
  /** The decompressed text, for assertions on the exact bytes. */
  text: string;
}

export function readCsvGz(file: string): CsvFile {
  const text = gunzipSync(readFileSync(file)).toString('utf8');
  const [header = [], ...rows] = parseCsvText(text);
  return { header, rows, text };
}

/** Each row as an object keyed by the header's column names. */
export function recordsOf(csv: CsvFile): Record<string, string>[] {
  return csv.rows.map((row) => Object.fromEntries(csv.header.map((name, index) => [name, row[index] ?? ''])));
}

/** RFC 4180 parser: records end with CRLF, quoted fields may hold commas, quotes and line breaks. */
export function parseCsvText(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') {
        quoted = false;
      } else {
        field += char;
      }
    } else if (char === '"') {
      quoted = true;
    } else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else {
      field += char;
    }
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

/** Every entry of a tar.gz (all gzip members) by name, in archive order. */
export async function readTarGz(file: string): Promise<Map<string, Buffer>> {
  const source = createReadStream(file).pipe(createGunzip());
  return readTarStream(source);
}

/** Every entry of an uncompressed tar held in memory (a downloaded, gunzipped bundle). */
export function readTar(tar: Buffer): Promise<Map<string, Buffer>> {
  return readTarStream(Readable.from([tar]));
}

async function readTarStream(source: Readable): Promise<Map<string, Buffer>> {
  const entries = new Map<string, Buffer>();
  const extractor = extract();
  source.on('error', (error) => extractor.destroy(error));
  source.pipe(extractor);
  for await (const entry of extractor) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    if (entries.has(entry.header.name)) throw new Error(`duplicate tar entry ${entry.header.name}`);
    entries.set(entry.header.name, Buffer.concat(chunks));
  }
  return entries;
}

/** The `meta.json` of a bundle folder, parsed. */
export function metaOf(entries: Map<string, Buffer>, folder: string): Record<string, unknown> {
  const data = entries.get(`${folder}meta.json`);
  if (data === undefined) {
    throw new Error(`no ${folder}meta.json in the bundle; entries: ${[...entries.keys()].join(', ')}`);
  }
  return JSON.parse(data.toString('utf8')) as Record<string, unknown>;
}
