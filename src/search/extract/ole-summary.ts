/** Property ids and value types of the SummaryInformation property set. */
const PID_CODEPAGE = 1;
const PID_TITLE = 2;
const VT_I2 = 0x02;
const VT_LPSTR = 0x1e;
const VT_LPWSTR = 0x1f;
/** More properties than a summary ever has: a bigger count is a broken stream. */
const MAX_PROPERTIES = 256;

/** Encoding names for the code pages that 8-bit titles come in. */
const CODE_PAGES: ReadonlyMap<number, string> = new Map([
  [1200, 'utf-16le'],
  [65001, 'utf-8'],
  [932, 'shift_jis'],
  [936, 'gbk'],
  [949, 'euc-kr'],
  [950, 'big5'],
  [10000, 'macintosh'],
]);

/** The title in an OLE file's SummaryInformation stream, '' if it has none or cannot be read. */
export function summaryTitle(stream: Uint8Array): string {
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  const fits = (at: number, size: number): boolean => at >= 0 && at + size <= stream.length;
  if (!fits(0, 48) || view.getUint16(0, true) !== 0xfffe || view.getUint32(24, true) < 1) return '';
  const section = view.getUint32(44, true);
  if (!fits(section, 8)) return '';
  const count = Math.min(view.getUint32(section + 4, true), MAX_PROPERTIES);
  let codePage = 1252;
  let titleAt: number | undefined;
  for (let index = 0; index < count && fits(section + 8 + index * 8, 8); index++) {
    const id = view.getUint32(section + 8 + index * 8, true);
    const at = section + view.getUint32(section + 12 + index * 8, true);
    if (!fits(at, 8)) continue;
    if (id === PID_CODEPAGE && view.getUint16(at, true) === VT_I2) codePage = view.getUint16(at + 4, true);
    if (id === PID_TITLE) titleAt = at;
  }
  if (titleAt === undefined) return '';
  const type = view.getUint16(titleAt, true);
  const size = view.getUint32(titleAt + 4, true);
  const start = titleAt + 8;
  let title = '';
  if (type === VT_LPSTR) title = decode(stream.subarray(start, start + size), codePage);
  else if (type === VT_LPWSTR) title = decode(stream.subarray(start, start + size * 2), 1200);
  return title.replace(/\0+$/u, '');
}

function decode(bytes: Uint8Array, codePage: number): string {
  try {
    return new TextDecoder(CODE_PAGES.get(codePage) ?? `windows-${codePage}`).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}
