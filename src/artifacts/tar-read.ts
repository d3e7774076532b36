/**
 * Reads the files of a few ustar entries (one page's part of the bundle, see tar-entries.ts),
 * PAX path records included: enough to take one page's screenshot out of crawl_objects.tar.gz
 * without reading the whole archive (docs/design/crawl.md, Run reports and live progress).
 */
const BLOCK = 512;

export interface TarEntryFile {
  name: string;
  data: Buffer;
}

export function readTarFiles(bytes: Buffer): TarEntryFile[] {
  const files: TarEntryFile[] = [];
  let offset = 0;
  let longName: string | undefined;
  while (offset + BLOCK <= bytes.length) {
    const header = bytes.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const name = text(header, 0, 100);
    const size = parseInt(text(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    const dataStart = offset + BLOCK;
    const data = bytes.subarray(dataStart, dataStart + size);
    if (type === 'x') {
      longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'))?.[1];
    } else if (type === '0' || type === '\0') {
      files.push({ name: longName ?? name, data: Buffer.from(data) });
      longName = undefined;
    }
    offset = dataStart + Math.ceil(size / BLOCK) * BLOCK;
  }
  return files;
}

function text(block: Buffer, start: number, length: number): string {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? field.length : end).toString('utf8');
}
