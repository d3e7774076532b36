import { blockHashOf, countedBlocksOf } from './template-block-hash.js';

/** What a page counts into its host's template lines. */
export interface TemplatePage {
  title: string;
  body: string;
  template: string;
}

/**
 * The lengths (UTF-16 units) of a host's template lines, found in its pages one page at a time. A
 * line with the hash of a template line is that line (barring a 2^-53 collision), so a line of a
 * length no template line has is not template, and cutting a hit's main text need not hash it
 * (docs/design/search-engine.md, Search requests).
 */
export class TemplateLineLengths {
  private readonly missing: Set<number>;
  private readonly lengths = new Set<number>();

  constructor(template: ReadonlySet<number>) {
    this.missing = new Set(template);
  }

  /** Counts a page's lines; true once every template line is found. */
  add(page: TemplatePage): boolean {
    for (const block of countedBlocksOf(page.title, page.body, page.template)) {
      if (this.missing.delete(blockHashOf(block))) this.lengths.add(block.length);
    }
    return this.missing.size === 0;
  }

  /** The lengths, undefined unless every template line was found: a partial set would keep template lines in the main text. */
  get found(): Set<number> | undefined {
    return this.missing.size === 0 ? this.lengths : undefined;
  }
}

/** The lengths of the lines of `template`, found in `pages` (TemplateLineLengths), read up to the last one needed. */
export function templateLineLengths(
  template: ReadonlySet<number>,
  pages: Iterable<TemplatePage>,
): Set<number> | undefined {
  const lengths = new TemplateLineLengths(template);
  for (const page of pages) if (lengths.add(page)) break;
  return lengths.found;
}
