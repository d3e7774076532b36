import { blockHashOf, titlePartsOf } from '../template-blocks.js';
import { phraseAt, phraseSpansOfLine } from './suggest-phrases.js';
import { ITEMS_PER_PAUSE, type Work } from './work-slices.js';

/**
 * The phrases suggest may offer from one document's title parts and headings
 * (docs/design/search-engine.md, Suggest), cut once when the document is analyzed (in the analysis
 * threads) and stored beside it (`document_phrases`, index format 8), so building a suggester
 * never cuts text again. Stored form, little-endian:
 *
 *     f64 hash of the title and headings (tells one version of a document from another)
 *     varint units, then per unit (title parts first, then headings, one a line):
 *       f64 hash of the line as template detection counts it, u8 1 for a title part
 *       varint bytes of the normalized line, its UTF-8
 *       varint phrases, per phrase: varint start, varint length (UTF-16 units), varint head + 1
 */

/** One title part or heading: its template hash and the phrases it offers, with their heads. */
export interface PhraseUnitText {
  hash: number;
  title: boolean;
  phrases: string[];
  /** Index of each phrase's head among `phrases`, -1 for none (suggest-phrases.ts). */
  heads: number[];
}

export interface DocumentPhraseUnits {
  textHash: number;
  units: PhraseUnitText[];
}

/** The hash that tells whether stored phrases were cut from this title and these headings. */
export function phraseTextHashOf(title: string, headings: string): number {
  return blockHashOf(`${title}\n${headings}`);
}

/** The stored form of a document's phrases (title parts, then the headings, one a line). */
export function encodeDocumentPhrases(title: string, headings: string): Uint8Array {
  const writer = new ByteWriter();
  writer.float(phraseTextHashOf(title, headings));
  const lines = [
    ...titlePartsOf(title).map((line) => ({ line, title: true })),
    ...headings
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => ({ line, title: false })),
  ];
  writer.varint(lines.length);
  for (const { line, title } of lines) {
    const { text, spans } = phraseSpansOfLine(line);
    writer.float(blockHashOf(line));
    writer.byte(title ? 1 : 0);
    writer.text(text);
    writer.varint(spans.length);
    for (const span of spans) {
      writer.varint(span.start);
      writer.varint(span.end - span.start);
      writer.varint(span.head + 1);
    }
  }
  return writer.bytes();
}

/** The hash of the title and headings a stored form was cut from, without decoding the rest. */
export function storedTextHashOf(data: Uint8Array): number {
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getFloat64(0, true);
}

/**
 * The stored form decoded, as work in slices: a pause point every ITEMS_PER_PAUSE units, since
 * one page may hold tens of thousands of headings (an API index page: 1.3 MB of phrases).
 */
export function* decodeDocumentPhrases(data: Uint8Array): Work<DocumentPhraseUnits> {
  const reader = new ByteReader(data);
  const textHash = reader.float();
  const units: PhraseUnitText[] = [];
  for (let unitCount = reader.varint(); unitCount > 0; unitCount -= 1) {
    if (units.length % ITEMS_PER_PAUSE === ITEMS_PER_PAUSE - 1) yield;
    const hash = reader.float();
    const title = reader.byte() === 1;
    const text = reader.text();
    const phrases: string[] = [];
    const heads: number[] = [];
    for (let count = reader.varint(); count > 0; count -= 1) {
      const start = reader.varint();
      const end = start + reader.varint();
      phrases.push(phraseAt(text, { start, end }));
      heads.push(reader.varint() - 1);
    }
    units.push({ hash, title, phrases, heads });
  }
  return { textHash, units };
}

class ByteWriter {
  private buffer = Buffer.alloc(256);
  private length = 0;

  private room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  byte(value: number): void {
    this.room(1);
    this.buffer[this.length++] = value;
  }

  varint(value: number): void {
    let rest = value;
    while (rest >= 0x80) {
      this.byte((rest & 0x7f) | 0x80);
      rest >>>= 7;
    }
    this.byte(rest);
  }

  float(value: number): void {
    this.room(8);
    this.buffer.writeDoubleLE(value, this.length);
    this.length += 8;
  }

  text(value: string): void {
    const bytes = Buffer.byteLength(value);
    this.varint(bytes);
    this.room(bytes);
    this.buffer.write(value, this.length, 'utf8');
    this.length += bytes;
  }

  bytes(): Uint8Array {
    return Uint8Array.prototype.slice.call(this.buffer, 0, this.length);
  }
}

class ByteReader {
  private readonly buffer: Buffer;
  private at = 0;

  constructor(data: Uint8Array) {
    this.buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  }

  byte(): number {
    if (this.at >= this.buffer.length) throw new Error('stored document phrases end early');
    return this.buffer[this.at++]!;
  }

  varint(): number {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = this.byte();
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  }

  float(): number {
    const value = this.buffer.readDoubleLE(this.at);
    this.at += 8;
    return value;
  }

  text(): string {
    const bytes = this.varint();
    const value = this.buffer.toString('utf8', this.at, this.at + bytes);
    this.at += bytes;
    return value;
  }
}
