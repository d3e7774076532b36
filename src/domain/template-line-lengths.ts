import { blockHashOf, countedBlocksOf } from './template-block-hash.js';

/** What a page counts into its host's template lines. */
export interface TemplatePage {
  title: string;
  body: string;
  template: string;
}

/**
 * The lengths (UTF-16 units) of a host's template lines, found in its pages. A line with the
 * hash of a template line is that line (barring a 2^-53 collision), so a line of a length no
 * template line has is not template, and cutting a hit's main text need not hash it
 * (docs/design/search-engine.md, Search requests). Undefined unless every hash of `template` was
 * found in `pages`: a partial set would keep template lines in the main text.
 */
export function templateLineLengths(
  template: ReadonlySet<number>,
  pages: Iterable<TemplatePage>,
): Set<number> | undefined {
  const missing = new Set(template);
  const lengths = new Set<number>();
  for (const page of pages) {
    for (const block of countedBlocksOf(page.title, page.body, page.template)) {
      if (missing.delete(blockHashOf(block))) lengths.add(block.length);
    }
    if (missing.size === 0) return lengths;
  }
  return undefined;
}
