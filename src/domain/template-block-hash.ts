/**
 * Repeated-block template detection, the counting side (docs/reference/site-search.md, Page templates): a line of
 * a page's main text (block elements separate lines, html-text.ts) that appears on many pages of
 * the same host is that site's template (a navigation bar, a breadcrumb, a footer). The index
 * file counts, per host, how many pages hold each line (search-index-schema.ts, format 6); this
 * file says which lines count and when a count makes a line template.
 */

/** A line must be on at least this many pages of its host to be template. */
export const TEMPLATE_MIN_PAGES = 3;
/** ...and on at least this share of the host's pages (a section's own heading is on fewer). */
export const TEMPLATE_MIN_SHARE = 0.3;
/**
 * A line already template stays so until it is on fewer than this share of its host's pages:
 * a site growing or shrinking around the 30% mark does not make its pages be indexed again
 * batch after batch.
 */
export const TEMPLATE_KEEP_SHARE = 0.2;
/**
 * Longer lines are never counted: templates are short (menus, breadcrumbs, copyright lines),
 * and counting every paragraph would make the counts as large as the text.
 */
export const MAX_BLOCK_CHARS = 300;

/** Whether a line on `pages` of its host's `hostPages` pages is template. */
export function isTemplateCount(pages: number, hostPages: number): boolean {
  return pages >= TEMPLATE_MIN_PAGES && pages >= TEMPLATE_MIN_SHARE * hostPages;
}

/**
 * The smallest count that makes a line template on a host of `hostPages` pages, or (`kept`)
 * that keeps a line that is template so.
 */
export function templateThreshold(hostPages: number, kept = false): number {
  const share = kept ? TEMPLATE_KEEP_SHARE : TEMPLATE_MIN_SHARE;
  return Math.max(TEMPLATE_MIN_PAGES, Math.ceil(share * hostPages - 1e-9));
}

/**
 * A 53-bit hash of a line (two 32-bit FNV-1a lanes): lines are counted by hash, and a
 * collision between two lines of one host is then about one in 2^53 per pair.
 */
export function blockHashOf(line: string): number {
  return blockHashOfRange(line, 0, line.length);
}

/** blockHashOf of `text.slice(start, end)`, without making that string. */
export function blockHashOfRange(text: string, start: number, end: number): number {
  let first = 0x811c9dc5;
  let second = 0x01000193 ^ (end - start);
  for (let index = start; index < end; index += 1) {
    const code = text.charCodeAt(index);
    first = Math.imul(first ^ code, 0x01000193);
    second = Math.imul(second ^ code, 0x5bd1e995);
    second ^= second >>> 15;
  }
  return (first >>> 0) * 0x200000 + ((second >>> 0) >>> 11);
}

/**
 * What separates a page's own title from the site's name in titles such as
 * `認証と承認 - Apache HTTP サーバ` or `json | Python docs`.
 */
const TITLE_SEPARATOR = /\s+[-|–—:»·]\s+/u;

/** The parts of a title around its separators; a title without one is a single part. */
export function titlePartsOf(title: string): string[] {
  return title.split(TITLE_SEPARATOR).filter((part) => part !== '');
}

/**
 * Lines counted at each end of a body and of a template text: a site's template frames its
 * pages (header, navigation, breadcrumb before the content; navigation and footer after it),
 * and counting every line of long pages would cost indexing time and index size for lines that
 * are content.
 */
export const EDGE_LINES = 60;

/**
 * The distinct counted blocks of a page, by hash: the lines at the ends of its body and of its
 * template text, and the parts of its title when it has several (the site's name repeated in
 * every title is template too).
 */
export function blockHashesOf(title: string, body: string, template = ''): Set<number> {
  return new Set(countedBlocksOf(title, body, template).map(blockHashOf));
}

/** The counted blocks of a page (blockHashesOf) as text, repeats included. */
export function countedBlocksOf(title: string, body: string, template = ''): string[] {
  const blocks: string[] = [];
  for (const text of [body, template]) {
    const lines = text === '' ? [] : text.split('\n');
    const counted =
      lines.length <= 2 * EDGE_LINES ? lines : [...lines.slice(0, EDGE_LINES), ...lines.slice(-EDGE_LINES)];
    for (const line of counted) {
      if (line !== '' && line.length <= MAX_BLOCK_CHARS) blocks.push(line);
    }
  }
  const parts = titlePartsOf(title);
  if (parts.length > 1) blocks.push(...parts);
  return blocks;
}

/** The host whose template a page shares: its URL's host, '' when the URL cannot be read. */
export function pageHostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}
