/**
 * The start of a page's main text as result pages show it, cut when the page is indexed and
 * stored beside it (index format 9, docs/design/search-engine.md, Stored display heads), so that a
 * hit costs a short read instead of reading its body and leaving out its template lines. The lines
 * looked at to cut it are kept with it: the head holds for as long as each of them is on the same
 * side of its host's template, which a search checks with one set lookup a line.
 */
import { type MainTextHead, mainTextHead } from './main-text-head.js';
import { mainTextKeyOf } from './main-text-key.js';
import { pageHostOf, type TemplateBlocks } from './template-blocks.js';

/** Code points of the main text that result pages look at: the snippet's passage is found there. */
export const DISPLAY_HEAD_CHARS = 20_000;

/** A display head as stored: the head, and the lines it was cut by (encodeExaminedLines). */
export interface StoredDisplayHead {
  text: string;
  more: boolean;
  lines: Uint8Array;
}

/**
 * A display head as written with its document, with the key of the document's main text
 * (main-text-key.ts): both are cut from the body by the template as it stands, and stored and
 * published together.
 */
export interface DisplayHeadToStore extends StoredDisplayHead {
  mainKey: Buffer | null;
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
  const head = mainTextHead(
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
  return {
    text: head.text,
    more: head.more,
    lines: encodeExaminedLines(template, kept),
    mainKey: mainTextKeyOf(body, url, blocks),
  };
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
