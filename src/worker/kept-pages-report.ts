import type { TextedPart } from '../domain/index.js';
import type { KeptUnasked } from './execute-crawl.js';

/**
 * The run's message about pages the previous run's copy served (docs/reference/crawl-rules.md,
 * Conditional re-crawls): those that answered 304, then those kept without a request because
 * their sitemap's lastmod is older than the copy; empty when there were none.
 */
export function keptPagesMessageOf(keptPages: number | undefined, unasked: KeptUnasked | undefined): string {
  return keptPagesPartOf(keptPages, unasked)?.text ?? '';
}

/**
 * The kept pages' part of the run's message (docs/api.md, Run messages): `not_modified` and
 * `not_requested` are -1 when the run had no such pages.
 */
export function keptPagesPartOf(
  keptPages: number | undefined,
  unasked: KeptUnasked | undefined,
): TextedPart | undefined {
  const parts: string[] = [];
  if (keptPages !== undefined)
    parts.push(`${keptPages} page(s) answered 304 Not Modified and kept the copy stored before`);
  if (unasked !== undefined)
    parts.push(
      `${unasked.pages} page(s) not requested and kept the copy stored before: their sitemap lastmod ` +
        `is older than that copy, which the site confirmed ${unasked.days} day(s) ago or less`,
    );
  if (parts.length === 0) return undefined;
  return {
    code: 'kept_pages',
    values: {
      not_modified: keptPages ?? -1,
      not_requested: unasked?.pages ?? -1,
      confirmed_days: unasked?.days ?? -1,
    },
    text: `unchanged: ${parts.join('; ')}`,
  };
}
