import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { PRIVATE_FILE_MODE } from '../util/index.js';

/**
 * An append-only file holding the bundle entries of a running crawl until the bundle is packed:
 * each page's tar entries (source, meta.json) as one gzip member. A gzip file may consist of
 * several members (RFC 1952 2.2), so packing the bundle is a copy of the members in fetch order. The store records each page's offset in the same transaction as its
 * URL row, so after a crash the bytes past the last committed offset are simply never read:
 * appending to one file keeps a resumed run consistent without a file per page.
 */
export class ObjectSpool {
  private readonly fd: number;
  private size: number;

  constructor(readonly filePath: string) {
    this.fd = openSync(filePath, 'a+', PRIVATE_FILE_MODE);
    this.size = fstatSync(this.fd).size;
  }

  /** Appends the buffers back to back; returns the offset of the first. */
  append(buffers: readonly Uint8Array[]): number {
    const offset = this.size;
    for (const buffer of buffers) {
      let written = 0;
      while (written < buffer.length) {
        written += writeSync(this.fd, buffer, written, buffer.length - written);
      }
      this.size += buffer.length;
    }
    return offset;
  }

  read(offset: number, length: number): Buffer {
    const buffer = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const count = readSync(this.fd, buffer, done, length - done, offset + done);
      if (count === 0) throw new Error(`spool ${this.filePath} ends before offset ${offset + length}`);
      done += count;
    }
    return buffer;
  }

  close(): void {
    closeSync(this.fd);
  }
}
