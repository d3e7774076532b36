import { DomUtils, parseDocument } from 'htmlparser2';
import type { HtmlElement } from './index-entry.js';

/**
 * Template text as the eval defines it, independently of the engine (docs/search-evaluation.md,
 * Figures): a text block of the raw HTML that occurs on at least TEMPLATE_SHARE of a site's pages.
 */
export const TEMPLATE_SHARE = 0.3;
/** Fragments of a template run this long (code points) count wherever they occur in a snippet. */
export const TEMPLATE_FRAGMENT_CHARS = 12;

/** Elements whose text stays inside the surrounding block; every other element starts a new one. */
const INLINE = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'big',
  'cite',
  'code',
  'data',
  'dfn',
  'em',
  'font',
  'i',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'tt',
  'u',
  'var',
  'wbr',
  'acronym',
  'label',
]);
/** Elements whose text a reader never sees as page text. */
const HIDDEN = new Set(['head', 'script', 'style', 'noscript', 'template', 'svg', 'button']);
const HAS_WORD = /[\p{L}\p{N}]/u;

/** Text as the measures compare it: NFKC, lower case, runs of white space as one space. */
export function comparableText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * The text blocks of a page in document order: the text between the boundaries of block-level
 * elements (anything not inline), compared as comparableText, without blocks that hold no letter
 * or digit. `<a>Prev</a> | <a>Up</a>` in one cell is one block; two cells are two.
 */
export function textBlocksOf(html: string): string[] {
  const blocks: string[] = [];
  let current = '';
  const flush = (): void => {
    const text = comparableText(current);
    if (HAS_WORD.test(text)) blocks.push(text);
    current = '';
  };
  const walk = (nodes: readonly HtmlElement['children'][number][]): void => {
    for (const node of nodes) {
      if (DomUtils.isText(node)) current += node.data;
      else if (DomUtils.isTag(node)) {
        if (HIDDEN.has(node.name)) continue;
        if (node.name === 'br') {
          current += ' ';
          continue;
        }
        const block = !INLINE.has(node.name);
        if (block) flush();
        walk(node.children);
        if (block) flush();
      }
    }
  };
  walk(parseDocument(html, { decodeEntities: true }).children);
  flush();
  return blocks;
}

/** The blocks found on at least `share` of the pages (each page counted once per block). */
export function templateBlocksOf(pages: readonly (readonly string[])[], share = TEMPLATE_SHARE): Set<string> {
  const pagesWith = new Map<string, number>();
  for (const blocks of pages) {
    for (const block of new Set(blocks)) pagesWith.set(block, (pagesWith.get(block) ?? 0) + 1);
  }
  const needed = Math.max(2, Math.ceil(share * pages.length));
  return new Set([...pagesWith].filter(([, count]) => count >= needed).map(([block]) => block));
}

/**
 * Consecutive template blocks of one page, joined by a space: how they read in the page's text.
 * A run of a single short block (one word under TEMPLATE_FRAGMENT_CHARS code points: `note`,
 * `description`, `概要`, `構文:`) is left out: those are the labels and headings pages repeat
 * inside their content, not the site's frame.
 */
export function templateRunsOf(blocks: readonly string[], template: ReadonlySet<string>): string[] {
  const runs: string[] = [];
  let run: string[] = [];
  for (const block of [...blocks, undefined]) {
    if (block !== undefined && template.has(block)) {
      run.push(block);
      continue;
    }
    if (run.length > 1 || (run.length === 1 && !isLabel(run[0]!))) runs.push(run.join(' '));
    run = [];
  }
  return runs;
}

function isLabel(block: string): boolean {
  return !block.includes(' ') && [...block].length < TEMPLATE_FRAGMENT_CHARS;
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;

/**
 * Whether a snippet (comparableText) shows a page's template text: it holds a whole template run
 * not inside a longer word (`prev up`, `次へ`), or any TEMPLATE_FRAGMENT_CHARS code points of one
 * (a run cut at the snippet's edge, or a long one in part).
 */
export class TemplateMatcher {
  private readonly fragments = new Set<string>();
  private readonly runs: string[];

  constructor(runs: readonly string[]) {
    this.runs = runs.filter((run) => HAS_WORD.test(run));
    for (const run of this.runs) {
      const chars = [...run];
      for (let start = 0; start + TEMPLATE_FRAGMENT_CHARS <= chars.length; start += 1) {
        this.fragments.add(chars.slice(start, start + TEMPLATE_FRAGMENT_CHARS).join(''));
      }
    }
  }

  matches(snippet: string): boolean {
    for (const run of this.runs) if (containsWord(snippet, run)) return true;
    if (this.fragments.size === 0) return false;
    const chars = [...snippet];
    for (let start = 0; start + TEMPLATE_FRAGMENT_CHARS <= chars.length; start += 1) {
      if (this.fragments.has(chars.slice(start, start + TEMPLATE_FRAGMENT_CHARS).join(''))) return true;
    }
    return false;
  }
}

/**
 * `needle` occurs in `text` with no letter or digit glued to it on a side where the needle itself
 * starts or ends with one (`up` in `prev up next`, not in `upgrade`; Japanese needs no spaces, so
 * a kana or kanji neighbour only counts when the needle's end is Latin).
 */
export function containsWord(text: string, needle: string): boolean {
  if (needle === '') return false;
  const chars = [...needle];
  const guardStart = isLatinWordChar(chars[0]!);
  const guardEnd = isLatinWordChar(chars.at(-1)!);
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    const before = text.slice(Math.max(0, at - 1), at);
    const after = text.slice(at + needle.length, at + needle.length + 1);
    if (guardStart && before !== '' && isLatinWordChar(before)) continue;
    if (guardEnd && after !== '' && isLatinWordChar(after)) continue;
    return true;
  }
  return false;
}

function isLatinWordChar(char: string): boolean {
  return WORD_CHAR.test(char) && !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(char);
}
