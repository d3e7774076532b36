import { line } from './eval-report.js';
import type { SnippetFigures } from './snippet-quality.js';
import { SUGGEST_DEPTH, type SuggestFigures } from './suggest-quality.js';
import { TEMPLATE_SHARE } from './template-blocks.js';

export function percent(share: number): string {
  return `${(100 * share).toFixed(1)}%`;
}

/** The engine's snippet and suggest figures, under its relevance figures. */
export function printQuality(
  templateBlocks: number,
  snippets: SnippetFigures,
  suggest: readonly SuggestFigures[],
): void {
  line(
    'template blocks',
    `${templateBlocks} distinct text blocks on ≥ ${percent(TEMPLATE_SHARE)} of the pages`,
  );
  line(
    'snippets (engine, API)',
    `${snippets.snippets} shown: ${percent(snippets.templateShare)} with template text, ` +
      `${percent(snippets.queryWordShare)} with a query word`,
  );
  line('descriptions', `${percent(snippets.descriptionTemplateShare)} with template text`);
  for (const figures of suggest) {
    line(
      `suggest, ${figures.prefixChars} chars typed`,
      `MRR ${figures.mrr.toFixed(4)}, in top ${SUGGEST_DEPTH} ${percent(figures.top10Share)} ` +
        `(${figures.queries} queries)`,
    );
  }
}
