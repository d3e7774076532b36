/**
 * The start of a page's main text as result pages show it, cut when the page is indexed and
 * stored beside it (index format 9, docs/design/search-engine.md, Stored display heads), so that a
 * hit costs a short read instead of reading its body and leaving out its template lines. The lines
 * looked at to cut it are kept with it: the head holds for as long as each of them is on the same
 * side of its host's template, which a search checks with one set lookup a line.
 */
import { type MainTextHead, mainTextRuns, textOfRuns } from './main-text-head.js';
import { mainTextKeyOf } from './main-text-key.js';
import { pageHostOf, type TemplateBlocks } from './template-blocks.js';

/** Code points of the main text that result pages look at: the snippet's passage is found there. */
export const DISPLAY_HEAD_CHARS = 20_000;

/**
 * Bodies of at most this many UTF-16 code units keep their head as runs of the body rather than
 * as text: reading such a body whole for a hit costs little more than reading its head, which
 * would be most of it again. A longer body's head is a smaller part of it and is kept as text,
 * so that a hit never reads a long body (docs/design/search-engine.md, Stored display heads).
 * Fewer than DISPLAY_HEAD_CHARS, so that such a head is never cut: it is its runs whole.
 */
export const HEAD_RUNS_MAX_BODY_UNITS = 16_384;

/** A display head as stored: the head, and the lines it was cut by (encodeExaminedLines). */
export interface StoredDisplayHead {
  text: string;
  more: boolean;
  lines: Uint8Array;
}

/**
 * A display head as written with its document, with the key of the document's main text
 * (main-text-key.ts): both are cut from the body by the template as it stands, and stored and
 * published together. A head kept as runs has `text` '' and its runs (encodeHeadRuns).
 */
export interface DisplayHeadToStore extends StoredDisplayHead {
  mainKey: Buffer | null;
  runs: HeadRuns | null;
}

/** Where a head lies in its body: the encoded runs, and how far into the body the last one ends. */
export interface HeadRuns {
  runs: Uint8Array;
  /** UTF-16 code units of the body the runs reach; as many code points always reach as far. */
  bodyEnd: number;
}

/** No lengths: every line is hashed, so that every line looked at is recorded. */
const NO_LENGTHS: ReadonlyMap<string, ReadonlySet<number>> = new Map();
const HASH_BYTES = 8;

/**
 * The display head of a page whose host has the template lines of `blocks`, cut from its body
 * as stored (storedFormOf: as it reads back, which is what a search cuts from).
 */
export function displayHeadOf(body: string, url: string, blocks: TemplateBlocks): DisplayHeadToStore {
  const template: number[] = [];
  const kept: number[] = [];
  const seen = new Set<number>();
  const head = mainTextRuns(
    body,
    true,
    url,
    { blocks, lineLengths: NO_LENGTHS },
    DISPLAY_HEAD_CHARS,
    (hash, isTemplate) => {
      if (seen.has(hash)) return;
      seen.add(hash);
      (isTemplate ? template : kept).push(hash);
    },
  )!;
  // SQLite's substr stops at a NUL in a text: such a body keeps its head as text.
  const byRuns = body.length <= HEAD_RUNS_MAX_BODY_UNITS && !head.more && !body.includes('\u0000');
  return {
    text: byRuns ? '' : textOfRuns(body, head.runs, DISPLAY_HEAD_CHARS),
    more: head.more,
    lines: encodeExaminedLines(template, kept),
    mainKey: mainTextKeyOf(body, url, blocks),
    runs: byRuns ? encodeHeadRuns(head.runs) : null,
  };
}

/**
 * The runs of a head that was not cut (mainTextRuns): 8 bytes a run, its start and end as
 * little-endian 32-bit integers.
 */
function encodeHeadRuns(runs: readonly number[]): HeadRuns {
  const bytes = new Uint8Array(runs.length * 4);
  const view = new DataView(bytes.buffer);
  runs.forEach((offset, index) => view.setUint32(index * 4, offset, true));
  return { runs: bytes, bodyEnd: runs.length === 0 ? 0 : runs[runs.length - 1]! };
}

/**
 * The head that stored runs give of the start of the body they were cut from (encodeHeadRuns),
 * its line breaks already spaces (SQLite replaces them faster than a script does, and a run
 * never starts or ends inside one): their slices joined, as the head was.
 */
export function headTextOfRuns(bodyStartInSpaces: string, runs: Uint8Array): string {
  const view = new DataView(runs.buffer, runs.byteOffset, runs.byteLength);
  const pieces: string[] = [];
  for (let offset = 0; offset < runs.byteLength; offset += 8)
    pieces.push(bodyStartInSpaces.slice(view.getUint32(offset, true), view.getUint32(offset + 4, true)));
  return pieces.join(' ');
}

/**
 * The stored head of the page at `url` when its host's template lines are `blocks`: the head
 * holds when each line it was cut by is still template, or still not. Undefined when one moved
 * side; the head is then cut from the body (and the page is split again when the index is next
 * written, which stores its new head).
 */
export function storedHeadFor(
  stored: StoredDisplayHead,
  url: string,
  blocks: TemplateBlocks,
): MainTextHead | undefined {
  return headHolds(stored.lines, url, blocks) ? { text: stored.text, more: stored.more } : undefined;
}

/** Whether each line a head was cut by (`lines`, as stored) is on the same side of the template. */
export function headHolds(lines: Uint8Array, url: string, blocks: TemplateBlocks): boolean {
  const template = blocks.get(pageHostOf(url));
  const view = new DataView(lines.buffer, lines.byteOffset, lines.byteLength);
  const count = lines.byteLength / HASH_BYTES;
  const templateCount = view.getFloat64(0, true);
  for (let index = 1; index < count; index += 1) {
    const isTemplate = template?.has(view.getFloat64(index * HASH_BYTES, true)) ?? false;
    if (isTemplate !== index <= templateCount) return false;
  }
  return true;
}

/** How many lines were template, those lines' hashes, then the kept lines' hashes: 8 bytes each. */
function encodeExaminedLines(template: readonly number[], kept: readonly number[]): Uint8Array {
  const bytes = new Uint8Array((1 + template.length + kept.length) * HASH_BYTES);
  const view = new DataView(bytes.buffer);
  view.setFloat64(0, template.length, true);
  [...template, ...kept].forEach((hash, index) => view.setFloat64((index + 1) * HASH_BYTES, hash, true));
  return bytes;
}
