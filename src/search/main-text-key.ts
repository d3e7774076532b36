/**
 * The key that tells pages with the same main text apart from the rest (docs/reference/site-search.md,
 * Pages with the same text): two documents of one type whose keys are equal are shown as one.
 */
import { createHash } from 'node:crypto';
import { mainLinesOf, type TemplateBlocks } from './template-blocks.js';

/**
 * Main text shorter than this (in code points, runs of white space counted as one) never makes
 * pages copies of each other: short pages (a contact form, "coming soon") share their few words
 * without being the same page.
 */
export const MIN_SAME_TEXT_CHARS = 100;

/** Bytes of the key: a digest's first 16, so that two different texts never meet in practice. */
const KEY_BYTES = 16;

/**
 * The key of a body's main text: its lines without those its host's template holds (the body is
 * already without the template markup), white space runs made one space. Null when no line is
 * left (a page that is all template, such as an index page, is never a copy) or the text is
 * shorter than MIN_SAME_TEXT_CHARS.
 */
export function mainTextKeyOf(body: string, url: string, blocks: TemplateBlocks): Buffer | null {
  const kept = mainLinesOf(body, url, blocks)?.join('\n') ?? body;
  const text = kept.replace(/\s+/gu, ' ').trim();
  // A code point takes one or two UTF-16 units: only a short text needs counting them.
  if (text.length < 2 * MIN_SAME_TEXT_CHARS && [...text].length < MIN_SAME_TEXT_CHARS) return null;
  return createHash('sha256').update(text).digest().subarray(0, KEY_BYTES);
}
