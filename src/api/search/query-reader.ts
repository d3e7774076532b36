import { allowedValuesReason, type FieldError } from '../../domain/index.js';
import { ApiError } from '../api-error.js';
import { isCallbackName } from './jsonp.js';
import {
  INPUT_ENCODINGS,
  type InputEncoding,
  decodeQueryBytes,
  isInputEncoding,
  parseRawQuery,
} from './raw-query.js';

/** Longest text value (q, prefix, category, one drill-down path), in characters, to bound work. */
export const MAX_TEXT_LENGTH = 1000;

/** C0 and C1 control characters except tab, which separates drill-down labels and is harmless in q. */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;

export interface IntegerRange {
  min: number;
  max: number;
  fallback: number;
}

/**
 * Reads the parameters of one site search request and collects every problem, so one 400 lists
 * them all. Parameters the endpoint does not know are ignored: browsers, JSONP helpers and
 * analytics tags add their own (`_=<timestamp>`, `utm_source`). An empty value (`page_number=`,
 * as forms send) counts as absent. A single-valued parameter given twice is an error rather than
 * a silent pick of one of them.
 */
export class QueryReader {
  readonly encoding: InputEncoding;
  private readonly errors: FieldError[] = [];
  private readonly params: Map<string, Uint8Array[]>;

  constructor(rawUrl: string) {
    this.params = parseRawQuery(rawUrl);
    this.encoding = this.readEncoding();
  }

  fail(name: string, reason: string): void {
    this.errors.push({ field: `query.${name}`, reason });
  }

  /** Decoded text of a single-valued parameter with control characters removed; '' when absent. */
  text(name: string, maxLength = MAX_TEXT_LENGTH): string {
    const bytes = this.single(name);
    if (bytes === undefined) return '';
    const value = cleanText(decodeQueryBytes(bytes, this.encoding));
    if (characterCount(value) > maxLength) {
      this.fail(name, `must be at most ${maxLength} characters`);
    }
    return value;
  }

  /** Decoded values of a parameter that may repeat, in order, without cleaning; [] when absent. */
  all(name: string): string[] {
    return (this.params.get(name) ?? []).map((bytes) => decodeQueryBytes(bytes, this.encoding));
  }

  /** A decimal integer (digits only: no sign, exponent or spaces) within the range. */
  integer(name: string, range: IntegerRange): number {
    const bytes = this.single(name);
    if (bytes === undefined) return range.fallback;
    const text = decodeQueryBytes(bytes, 'utf8');
    if (!/^[0-9]+$/.test(text)) {
      this.fail(name, 'must be an integer');
      return range.fallback;
    }
    const value = Number(text);
    if (value < range.min || value > range.max) {
      this.fail(name, `must be between ${range.min} and ${range.max}`);
      return range.fallback;
    }
    return value;
  }

  /** The JSONP callback, or undefined for a plain JSON answer. */
  callback(): string | undefined {
    const bytes = this.single('callback');
    if (bytes === undefined) return undefined;
    const value = decodeQueryBytes(bytes, 'utf8');
    if (!isCallbackName(value)) {
      this.fail(
        'callback',
        'must be a JavaScript identifier path (letters, digits, _, $ and dots) of at most 128 characters',
      );
      return undefined;
    }
    return value;
  }

  /** Throws the collected problems as one invalid_input error. */
  finish(): void {
    if (this.errors.length === 0) return;
    const message = this.errors.map((e) => `${e.field.replace(/^query\./, '')}: ${e.reason}`).join('; ');
    throw new ApiError('invalid_input', message, this.errors);
  }

  private single(name: string): Uint8Array | undefined {
    const values = this.params.get(name);
    if (values === undefined) return undefined;
    if (values.length > 1) {
      this.fail(name, 'must be given at most once');
      return undefined;
    }
    const value = values[0];
    return value === undefined || value.length === 0 ? undefined : value;
  }

  /** An unknown encoding is reported, and the other values are then read as UTF-8. */
  private readEncoding(): InputEncoding {
    const bytes = this.single('input_encoding');
    if (bytes === undefined) return 'utf8';
    const value = decodeQueryBytes(bytes, 'utf8');
    if (isInputEncoding(value)) return value;
    this.fail('input_encoding', allowedValuesReason(INPUT_ENCODINGS));
    return 'utf8';
  }
}

export function cleanText(value: string): string {
  return value.replace(CONTROL_CHARACTERS, '');
}

/** Characters as people count them (code points), not UTF-16 units. */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}
