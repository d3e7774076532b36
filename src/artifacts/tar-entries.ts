/**
 * POSIX ustar entries as standalone byte blocks. The bundle is written page by page during the
 * crawl (each page's entries compressed as one gzip member, see object-spool.ts), which needs the
 * bytes of one entry on their own; tar-stream only produces whole archives and does not export
 * its header encoder, so the few well-specified bytes of a header are encoded here.
 */

const BLOCK = 512;
/** Two zero blocks end an archive (POSIX.1-2001 ustar). */
export const END_OF_ARCHIVE: Buffer = Buffer.alloc(BLOCK * 2);

export interface TarFile {
  name: string;
  data: Uint8Array;
  mtimeSeconds: number;
  /** The data is compressed already (JPEG): the bundle stores it as is. */
  compressed?: boolean;
}

/** Header(s), data and padding of each file, concatenated. */
export function encodeTarFiles(files: readonly TarFile[]): Buffer {
  const parts: Uint8Array[] = [];
  for (const file of files) {
    const nameBytes = Buffer.from(file.name, 'utf8');
    if (nameBytes.length > 100) parts.push(...paxEntry(file.name, file.mtimeSeconds));
    parts.push(header(nameBytes.subarray(0, 100), file.data.length, file.mtimeSeconds, '0'));
    parts.push(file.data, padding(file.data.length));
  }
  return Buffer.concat(parts);
}

/** A PAX extended header carrying a path longer than the 100 bytes of the ustar name field. */
function paxEntry(name: string, mtimeSeconds: number): Uint8Array[] {
  const record = (length: number) => `${length} path=${name}\n`;
  let length = Buffer.byteLength(record(0));
  while (Buffer.byteLength(record(length)) !== length) length = Buffer.byteLength(record(length));
  const body = Buffer.from(record(length), 'utf8');
  return [header(Buffer.from('PaxHeader'), body.length, mtimeSeconds, 'x'), body, padding(body.length)];
}

function header(name: Uint8Array, size: number, mtimeSeconds: number, type: string): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.set(name, 0);
  block.write(octal(0o644, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(Math.floor(mtimeSeconds), 12), 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write(type, 156, 'ascii');
  block.write('ustar\u000000', 257, 'ascii');
  let checksum = 0;
  for (const byte of block) checksum += byte;
  block.write(`${checksum.toString(8).padStart(6, '0')}\u0000 `, 148, 'ascii');
  return block;
}

/** Zero-padded octal number with a terminating NUL, `width` bytes in all. */
function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\u0000`;
}

function padding(size: number): Buffer {
  const rest = size % BLOCK;
  return rest === 0 ? Buffer.alloc(0) : Buffer.alloc(BLOCK - rest);
}
