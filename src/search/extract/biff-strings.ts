const utf16 = new TextDecoder('utf-16le');

/** Characters of a BIFF8 string: UTF-16LE, or one byte each ("compressed": the high byte dropped). */
export function biffChars(bytes: Uint8Array, wide: boolean): string {
  return wide ? utf16.decode(bytes) : Buffer.from(bytes).toString('latin1');
}

/** An XLUnicodeString in a record (LABEL, STRING): a length of lengthBytes bytes, a flags byte, characters. */
export function recordString(data: Uint8Array, at: number, lengthBytes: 1 | 2): string {
  const count = lengthBytes === 2 ? (data[at] ?? 0) | ((data[at + 1] ?? 0) << 8) : (data[at] ?? 0);
  const wide = ((data[at + lengthBytes] ?? 0) & 0x01) === 1;
  const start = at + lengthBytes + 1;
  return biffChars(data.subarray(start, start + count * (wide ? 2 : 1)), wide);
}

/**
 * The shared string table: the SST record's data and that of the CONTINUE records after it, read as
 * one run. A string's characters may break across records, and the next record then starts with a
 * fresh flags byte saying whether the rest is one or two bytes a character.
 */
export function sharedStrings(segments: readonly Uint8Array[]): string[] {
  const reader = new SegmentReader(segments);
  reader.skip(4);
  const unique = reader.u32();
  const strings: string[] = [];
  while (strings.length < unique && !reader.atEnd()) {
    const count = reader.u16();
    const flags = reader.u8();
    const runs = flags & 0x08 ? reader.u16() : 0;
    const extension = flags & 0x04 ? reader.u32() : 0;
    strings.push(reader.chars(count, (flags & 0x01) === 1));
    reader.skip(runs * 4 + extension);
  }
  return strings;
}

class SegmentReader {
  private index = 0;
  private at = 0;

  constructor(private readonly segments: readonly Uint8Array[]) {}

  atEnd(): boolean {
    this.settle();
    return this.index >= this.segments.length;
  }

  u8(): number {
    this.settle();
    const segment = this.segments[this.index];
    if (!segment) return 0;
    return segment[this.at++] ?? 0;
  }

  u16(): number {
    return this.u8() | (this.u8() << 8);
  }

  u32(): number {
    return (this.u16() | (this.u16() << 16)) >>> 0;
  }

  skip(count: number): void {
    let left = count;
    while (left > 0 && !this.atEnd()) {
      const segment = this.segments[this.index];
      if (!segment) return;
      const step = Math.min(left, segment.length - this.at);
      this.at += step;
      left -= step;
    }
  }

  chars(count: number, startsWide: boolean): string {
    let wide = startsWide;
    let left = count;
    let text = '';
    while (left > 0) {
      const segment = this.segments[this.index];
      if (!segment) break;
      if (this.at >= segment.length) {
        // The string goes on in the next record, which says again how wide its characters are.
        this.index += 1;
        this.at = 0;
        const next = this.segments[this.index];
        if (!next || next.length === 0) break;
        wide = ((next[0] ?? 0) & 0x01) === 1;
        this.at = 1;
        continue;
      }
      const width = wide ? 2 : 1;
      const take = Math.min(left, Math.floor((segment.length - this.at) / width));
      if (take === 0) {
        // Half a character before the record's end: broken data, read on from the next record.
        this.at = segment.length;
        continue;
      }
      text += biffChars(segment.subarray(this.at, this.at + take * width), wide);
      this.at += take * width;
      left -= take;
    }
    return text;
  }

  /** Moves past exhausted segments. */
  private settle(): void {
    while (this.index < this.segments.length && this.at >= (this.segments[this.index]?.length ?? 0)) {
      this.index += 1;
      this.at = 0;
    }
  }
}
