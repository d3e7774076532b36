import type { StoredDocument } from '../../store/sqlite/search-index-store.js';
import type { HighlightPart, QueryHighlighter } from '../highlight/query-highlighter.js';
import { mainTextOf, type TemplateBlocks } from '../template-blocks.js';
import type { OrganicDoc } from './search-response.js';

/**
 * Code points of `start_text`: the first characters of the body (docs/reference/site-search.md,
 * organic).
 */
const START_TEXT_CHARS = 200;
/** Code points of the shown description when the page has no meta description. */
const DESCRIPTION_CHARS = 200;
/** Code points of the body snippet in document_text_parts. */
const SNIPPET_CHARS = 160;
/** Code points of the body searched for the snippet's passage. */
const SNIPPET_SOURCE_CHARS = 20_000;
const ELLIPSIS: HighlightPart = { is_highlighted: false, text: '…' };

/**
 * One hit as the API returns it. Highlights are cut from the stored original text (see
 * src/search/highlight); the body snippet is the passage that matches best, with '…' where text
 * was left out. The description is the meta description, else the start of the body. Snippet,
 * start text and description come from the main text: the body without the lines its site's
 * template repeats (docs/reference/site-search.md, Page templates).
 */
export function organicDocOf(
  document: StoredDocument,
  ranking: number,
  drilldown: string[],
  highlighter: QueryHighlighter,
  templateBlocks: TemplateBlocks = new Map(),
): OrganicDoc {
  // Lines become spaces: shown text reads as one paragraph, and offsets stay those of the text.
  const main = mainTextOf(document.body, document.url, templateBlocks).replaceAll('\n', ' ');
  const description =
    document.description !== '' ? document.description : firstCodePoints(main, DESCRIPTION_CHARS);
  // The snippet is looked for in the start of the body only: a 1 MB PDF text would otherwise be
  // normalized and scanned for every hit of every page.
  const sample = firstCodePoints(main, SNIPPET_SOURCE_CHARS);
  const snippet = highlighter.snippet(sample, SNIPPET_CHARS);
  if (sample.length < main.length) snippet.truncatedEnd = true;
  const documentTextParts = [
    ...(snippet.truncatedStart ? [ELLIPSIS] : []),
    ...snippet.parts,
    ...(snippet.truncatedEnd ? [ELLIPSIS] : []),
  ];
  return {
    ranking,
    url: document.url,
    title: document.title,
    description,
    start_text: firstCodePoints(main, START_TEXT_CHARS),
    highlight: {
      url_parts: highlighter.parts(document.url),
      title_parts: highlighter.parts(document.title),
      description_parts: highlighter.parts(description),
      document_text_parts: documentTextParts,
    },
    content_size: document.contentSize,
    last_modified: document.lastModified,
    drilldown,
    doctype: document.doctype,
  };
}

/** The first `count` code points, never splitting a surrogate pair. */
function firstCodePoints(text: string, count: number): string {
  if (text.length <= count) return text;
  let end = 0;
  for (let taken = 0; taken < count && end < text.length; taken += 1) {
    end += text.codePointAt(end)! > 0xffff ? 2 : 1;
  }
  return text.slice(0, end);
}
