/**
 * Query strings of the site search endpoints, read from the raw request URL: `input_encoding` names
 * the legacy encoding of the percent-encoded bytes (docs/reference/site-search.md, Common
 * parameters), so values stay bytes until that parameter is known, which a parsed query object
 * cannot offer.
 */
import { TextDecoder, TextEncoder } from 'node:util';

export const INPUT_ENCODINGS = ['utf8', 'sjis', 'jis', 'euc-jp', 'euc-kr', 'iso-8859-1'] as const;
export type InputEncoding = (typeof INPUT_ENCODINGS)[number];

/**
 * WHATWG labels of the encodings. `iso-8859-1` decodes as windows-1252, as browsers do: pages that
 * declare iso-8859-1 submit windows-1252 bytes (0x80 is €, not a control character).
 */
const DECODER_LABELS: Record<InputEncoding, string> = {
  utf8: 'utf-8',
  sjis: 'shift_jis',
  jis: 'iso-2022-jp',
  'euc-jp': 'euc-jp',
  'euc-kr': 'euc-kr',
  'iso-8859-1': 'windows-1252',
};

const decoders = new Map<InputEncoding, TextDecoder>();

export function isInputEncoding(value: string): value is InputEncoding {
  return (INPUT_ENCODINGS as readonly string[]).includes(value);
}

/**
 * Decodes the bytes of one value; bytes that are invalid in the encoding become U+FFFD rather
 * than an error, since a mangled query still deserves an answer.
 */
export function decodeQueryBytes(bytes: Uint8Array, encoding: InputEncoding): string {
  let decoder = decoders.get(encoding);
  if (!decoder) {
    decoder = new TextDecoder(DECODER_LABELS[encoding]);
    decoders.set(encoding, decoder);
  }
  return decoder.decode(bytes);
}

/**
 * Splits the query of a raw URL (`/path?a=1&b=%8C%9F`) into names and byte values. Names are
 * UTF-8; repeated names keep every value in order. A fragment is dropped and pieces without a
 * name are skipped.
 */
export function parseRawQuery(rawUrl: string): Map<string, Uint8Array[]> {
  const result = new Map<string, Uint8Array[]>();
  const start = rawUrl.indexOf('?');
  if (start < 0) return result;
  const hash = rawUrl.indexOf('#', start);
  const query = rawUrl.slice(start + 1, hash < 0 ? undefined : hash);
  for (const piece of query.split('&')) {
    if (piece === '') continue;
    const equals = piece.indexOf('=');
    const rawName = equals < 0 ? piece : piece.slice(0, equals);
    const rawValue = equals < 0 ? '' : piece.slice(equals + 1);
    const name = decodeQueryBytes(percentDecode(rawName), 'utf8');
    if (name === '') continue;
    const values = result.get(name);
    const value = percentDecode(rawValue);
    if (values) values.push(value);
    else result.set(name, [value]);
  }
  return result;
}

const encoder = new TextEncoder();

/**
 * Form-urlencoded bytes: `+` is a space and `%XX` a byte. A `%` without two hex digits stays a
 * literal `%`, as browsers treat it. Node's HTTP parser only lets ASCII into a URL, but a
 * non-ASCII character (from a caller that built the URL itself) is taken as its UTF-8 bytes.
 */
function percentDecode(text: string): Uint8Array {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x25 && isHex(text.charCodeAt(i + 1)) && isHex(text.charCodeAt(i + 2))) {
      bytes.push(Number.parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (code === 0x2b) {
      bytes.push(0x20);
    } else if (code < 0x80) {
      bytes.push(code);
    } else {
      const codePoint = text.codePointAt(i) ?? code;
      const char = String.fromCodePoint(codePoint);
      bytes.push(...encoder.encode(char));
      i += char.length - 1;
    }
  }
  return Uint8Array.from(bytes);
}

function isHex(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}
