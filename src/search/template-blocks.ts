/**
 * What a site's repeated template leaves of a page for display and related keywords
 * (docs/reference/site-search.md, Page templates); the counting rules are in
 * src/domain/template-block-hash.ts.
 */
import { blockHashOf, MAX_BLOCK_CHARS, pageHostOf, titlePartsOf } from '../domain/index.js';

export {
  blockHashOf,
  blockHashOfRange,
  blockHashesOf,
  isTemplateCount,
  MAX_BLOCK_CHARS,
  pageHostOf,
  templateThreshold,
  titlePartsOf,
} from '../domain/index.js';

/** The template lines of each host, by hash: what display and related keywords leave out. */
export type TemplateBlocks = ReadonlyMap<string, ReadonlySet<number>>;

/**
 * What cutting hits needs of a generation's templates: the lines, and for the hosts where all
 * are known, their lengths (src/domain/template-line-lengths.ts), so that a line of another
 * length is kept without hashing it.
 */
export interface HitTemplates {
  blocks: TemplateBlocks;
  lineLengths: ReadonlyMap<string, ReadonlySet<number>>;
}

/**
 * The body without the lines its host's template holds; the whole body when every line is
 * template (a page that is all navigation still needs a description).
 */
export function mainTextOf(body: string, url: string, blocks: TemplateBlocks): string {
  const kept = mainLinesOf(body, url, blocks);
  return kept === undefined || kept.length === 0 ? body : kept.join('\n');
}

/**
 * The body's lines its host's template does not hold; undefined when the host has no template
 * (every line is main text).
 */
export function mainLinesOf(body: string, url: string, blocks: TemplateBlocks): string[] | undefined {
  const template = blocks.get(pageHostOf(url));
  if (template === undefined || template.size === 0) return undefined;
  return body.split('\n').filter((line) => line.length > MAX_BLOCK_CHARS || !template.has(blockHashOf(line)));
}

/** The title without the parts its host's template holds (the whole title when all are). */
export function mainTitleOf(title: string, url: string, blocks: TemplateBlocks): string {
  const template = blocks.get(pageHostOf(url));
  const parts = titlePartsOf(title);
  if (template === undefined || parts.length < 2) return title;
  const kept = parts.filter((part) => !template.has(blockHashOf(part)));
  return kept.length === 0 ? title : kept.join(' ');
}
