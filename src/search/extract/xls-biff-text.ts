import { recordString, sharedStrings } from './biff-strings.js';
import type { TextSink } from './text-sink.js';

/** BIFF8 record types read here. */
const FORMULA = 0x0006;
const FILEPASS = 0x002f;
const CONTINUE = 0x003c;
const BOUNDSHEET = 0x0085;
const MULRK = 0x00bd;
const RSTRING = 0x00d6;
const SST = 0x00fc;
const LABELSST = 0x00fd;
const NUMBER = 0x0203;
const LABEL = 0x0204;
const STRING = 0x0207;
const RK = 0x027e;
const BOF = 0x0809;
const BIFF8 = 0x0600;

/**
 * Text of an Excel 97-2003 'Workbook' stream: each sheet's name, then its cells row by row (strings,
 * numbers and formula results, as in the xlsx extractor).
 */
export function xlsRecordText(stream: Uint8Array, body: TextSink): void {
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  const sheetNames = new Map<number, string>();
  let shared: string[] = [];
  let row = -1;
  const cell = (cellRow: number, value: string): void => {
    if (cellRow !== row) body.lineBreak();
    row = cellRow;
    body.text(value);
    body.space();
  };
  let at = 0;
  while (at + 4 <= stream.length && !body.exhausted) {
    const start = at;
    const type = view.getUint16(at, true);
    const data = stream.subarray(at + 4, at + 4 + view.getUint16(at + 2, true));
    const field = new DataView(data.buffer, data.byteOffset, data.byteLength);
    at += 4 + data.length;
    if (data.length < 2) continue;
    switch (type) {
      case BOF: {
        if (start === 0 && field.getUint16(0, true) !== BIFF8) {
          throw new Error('only Excel 97 and later workbooks (BIFF8) are read');
        }
        const name = sheetNames.get(start);
        if (name !== undefined) {
          body.lineBreak();
          body.text(name);
          body.lineBreak();
        }
        row = -1;
        break;
      }
      case FILEPASS:
        throw new Error('the workbook is encrypted');
      case BOUNDSHEET:
        if (data.length > 6) sheetNames.set(field.getUint32(0, true), recordString(data, 6, 1));
        break;
      case SST: {
        const segments = [data];
        while (at + 4 <= stream.length && view.getUint16(at, true) === CONTINUE) {
          const size = view.getUint16(at + 2, true);
          segments.push(stream.subarray(at + 4, at + 4 + size));
          at += 4 + size;
        }
        shared = sharedStrings(segments);
        break;
      }
      case LABELSST:
        if (data.length >= 10) cell(field.getUint16(0, true), shared[field.getUint32(6, true)] ?? '');
        break;
      case LABEL:
      case RSTRING:
        if (data.length > 8) cell(field.getUint16(0, true), recordString(data, 6, 2));
        break;
      case NUMBER:
        if (data.length >= 14) cell(field.getUint16(0, true), numberText(field.getFloat64(6, true)));
        break;
      case RK:
        if (data.length >= 10) cell(field.getUint16(0, true), numberText(rkNumber(field.getUint32(6, true))));
        break;
      case MULRK:
        // Row, first column, then (format, RK) pairs of 6 bytes, then the last column.
        for (let item = 4; item + 6 <= data.length - 2; item += 6) {
          cell(field.getUint16(0, true), numberText(rkNumber(field.getUint32(item + 2, true))));
        }
        break;
      case FORMULA:
        // A result of 0xFFFF in the top bytes is not a number: a string result follows in a STRING record.
        if (data.length >= 14 && field.getUint16(12, true) !== 0xffff) {
          cell(field.getUint16(0, true), numberText(field.getFloat64(6, true)));
        }
        break;
      case STRING:
        if (data.length > 3) cell(row, recordString(data, 0, 2));
        break;
    }
  }
}

/** An RK value: a 30-bit integer or the top 30 bits of a double, optionally divided by 100. */
function rkNumber(rk: number): number {
  let value: number;
  if (rk & 0x02) value = rk >> 2;
  else {
    const bits = new DataView(new ArrayBuffer(8));
    bits.setUint32(4, rk & 0xfffffffc, true);
    value = bits.getFloat64(0, true);
  }
  return rk & 0x01 ? value / 100 : value;
}

/** A number as a person would type it: no binary rounding noise such as 0.30000000000000004. */
function numberText(value: number): string {
  return Number.isFinite(value) ? String(Number(value.toPrecision(15))) : '';
}
