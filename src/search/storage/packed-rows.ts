/**
 * Rows of SQLite values packed into one buffer, for a generation's delta
 * (generation-delta.ts): a value is a tag byte and its bytes. Reading tens of thousands of rows of
 * a segment's postings this way takes a tenth of the time structured cloning (`v8.deserialize`)
 * took, most of a node's time to apply a large delta.
 */

type Value = unknown;

const NULL = 0;
const INT32 = 1;
const DOUBLE = 2;
const TEXT = 3;
const BLOB = 4;
const BIGINT = 5;

/** Packs rows (each an array of SQLite values: null, number, bigint, string, bytes). */
export function packRows(rows: readonly Value[][]): Buffer {
  let size = 0;
  for (const row of rows) for (const value of row) size += packedSize(value);
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const row of rows)
    for (const value of row) {
      if (value === null || value === undefined) out[at++] = NULL;
      else if (typeof value === 'number') {
        if (Number.isInteger(value) && value >= -0x8000_0000 && value <= 0x7fff_ffff) {
          out[at++] = INT32;
          at = out.writeInt32LE(value, at);
        } else {
          out[at++] = DOUBLE;
          at = out.writeDoubleLE(value, at);
        }
      } else if (typeof value === 'bigint') {
        out[at++] = BIGINT;
        at = out.writeBigInt64LE(value, at);
      } else if (typeof value === 'string') {
        out[at++] = TEXT;
        const length = out.write(value, at + 4, 'utf8');
        out.writeUInt32LE(length, at);
        at += 4 + length;
      } else if (value instanceof Uint8Array) {
        out[at++] = BLOB;
        at = out.writeUInt32LE(value.byteLength, at);
        out.set(value, at);
        at += value.byteLength;
      } else throw new Error(`a row value of type ${typeof value} cannot be packed`);
    }
  return out.subarray(0, at);
}

function packedSize(value: Value): number {
  if (value === null || value === undefined) return 1;
  if (typeof value === 'number' || typeof value === 'bigint') return 9;
  if (typeof value === 'string') return 5 + Buffer.byteLength(value, 'utf8');
  if (value instanceof Uint8Array) return 5 + value.byteLength;
  throw new Error(`a row value of type ${typeof value} cannot be packed`);
}

/** The rows of `packed`, `width` values each; blobs are views of `packed`. */
export function* unpackRows(packed: Buffer, width: number): Generator<Value[]> {
  let at = 0;
  while (at < packed.length) {
    const row = new Array<Value>(width);
    for (let column = 0; column < width; column += 1) {
      const tag = packed[at++];
      switch (tag) {
        case NULL:
          row[column] = null;
          break;
        case INT32:
          row[column] = packed.readInt32LE(at);
          at += 4;
          break;
        case DOUBLE:
          row[column] = packed.readDoubleLE(at);
          at += 8;
          break;
        case BIGINT:
          row[column] = packed.readBigInt64LE(at);
          at += 8;
          break;
        case TEXT: {
          const length = packed.readUInt32LE(at);
          row[column] = packed.toString('utf8', at + 4, at + 4 + length);
          at += 4 + length;
          break;
        }
        case BLOB: {
          const length = packed.readUInt32LE(at);
          row[column] = packed.subarray(at + 4, at + 4 + length);
          at += 4 + length;
          break;
        }
        default:
          throw new Error(`packed rows: no value of tag ${String(tag)} at byte ${at - 1}`);
      }
    }
    yield row;
  }
}
