import type { HitDocument, HitDocumentSource } from '../storage/hit-documents.js';
import { firstCodePoints } from '../../util/index.js';
import type { HighlightPart, QueryHighlighter } from '../highlight/query-highlighter.js';
import { DISPLAY_HEAD_CHARS, storedHeadFor } from '../display-head.js';
import { mainTextHead, type MainTextHead } from '../main-text-head.js';
import { mainLinesOf, type HitTemplates } from '../template-blocks.js';
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
/**
 * Code points of the stored body read for a hit: the snippet's source and room for the template
 * lines before it; a body whose template takes more is read whole (mainHeadOf).
 */
const HIT_BODY_CHARS = 32_000;
/**
 * Code points of a page's link text read for a snippet when its main text shows no match: a
 * table of contents whole, the start of a long index (read only for such hits).
 */
const LINK_TEXT_CHARS = 16_000;
const ELLIPSIS: HighlightPart = { is_highlighted: false, text: '…' };

/** A hit of a result page to show: its document and its place. */
export interface PageHit {
  id: number;
  /** Its rank among all hits, from 1. */
  ranking: number;
  drilldown: string[];
  /** URLs of the pages with the same main text it is shown for (same-text-copies.ts). */
  copyUrls: readonly string[];
}

/**
 * The hits of a result page as the API returns them, read from `source`; a hit whose document
 * went since it matched is left out.
 */
export function organicDocsOf(
  hits: readonly PageHit[],
  source: HitDocumentSource,
  highlighter: QueryHighlighter,
  templates: HitTemplates,
): OrganicDoc[] {
  return hits.flatMap((hit) => {
    const document = source.hitDocument(hit.id, HIT_BODY_CHARS);
    if (document === undefined) return [];
    const main = mainHeadOf(document, source, templates);
    if (main === undefined) return [];
    const linkText = () => linkTextOf(source, document.id, document.url, templates);
    const doc = organicDocOf(document, main, hit.ranking, hit.drilldown, highlighter, linkText);
    return [hit.copyUrls.length === 0 ? doc : { ...doc, duplicate_urls: [...hit.copyUrls] }];
  });
}

/**
 * One hit as the API returns it. Highlights are cut from the stored original text (see
 * src/search/highlight); the body snippet is the passage that matches best, with '…' where text
 * was left out. The description is the meta description, else the start of the body. Snippet,
 * start text and description come from the main text: the body without the lines its site's
 * template repeats (docs/reference/site-search.md, Page templates).
 */
function organicDocOf(
  document: HitDocument,
  main: MainTextHead,
  ranking: number,
  drilldown: string[],
  highlighter: QueryHighlighter,
  linkText: () => string,
): OrganicDoc {
  // Lines become spaces: shown text reads as one paragraph, and offsets stay those of the text.
  // The snippet is looked for in the start of the main text only: a 1 MB PDF text would
  // otherwise be normalized and scanned for every hit of every page.
  const description =
    document.description !== '' ? document.description : firstCodePoints(main.text, DESCRIPTION_CHARS);
  let snippet = highlighter.snippet(main.text, SNIPPET_CHARS);
  if (main.more) snippet.truncatedEnd = true;
  const titleParts = highlighter.parts(document.title);
  if (!holdsMatch(snippet.parts) && !holdsMatch(titleParts)) {
    // A page found by its link entries (a table of contents, an index) shows the entry that
    // matched rather than a start that does not say why it was found; a page its title found
    // shows its start (docs/reference/site-search.md, Listing pages).
    const fromLinks = highlighter.snippet(linkText(), SNIPPET_CHARS);
    if (holdsMatch(fromLinks.parts)) snippet = fromLinks;
  }
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
    start_text: firstCodePoints(main.text, START_TEXT_CHARS),
    highlight: {
      url_parts: highlighter.parts(document.url),
      title_parts: titleParts,
      description_parts: highlighter.parts(description),
      document_text_parts: documentTextParts,
    },
    content_size: document.contentSize,
    last_modified: document.lastModified,
    drilldown,
    doctype: document.doctype,
  };
}

function holdsMatch(parts: readonly HighlightPart[]): boolean {
  return parts.some((part) => part.is_highlighted);
}

/**
 * The start of a page's link text without the lines its host's template repeats, its lines
 * made spaces as the main text's are; '' when the document went meanwhile.
 */
function linkTextOf(source: HitDocumentSource, id: number, url: string, templates: HitTemplates): string {
  const text = source.linkText(id, LINK_TEXT_CHARS) ?? '';
  return (mainLinesOf(text, url, templates.blocks) ?? text.split('\n')).join(' ');
}

/**
 * The main text's start: the stored display head while the lines it was cut by are on the same
 * side of the template, else cut from the body's start (read now when the head was read
 * instead), or from the whole body when that start is too short. Undefined when the document
 * went meanwhile.
 */
function mainHeadOf(
  document: HitDocument,
  source: HitDocumentSource,
  templates: HitTemplates,
): MainTextHead | undefined {
  const { id, url, displayHead } = document;
  if (displayHead !== undefined) {
    const held = storedHeadFor(displayHead, url, templates.blocks);
    if (held !== undefined) return held;
  }
  const start = displayHead === undefined ? document : source.bodyHead(id, HIT_BODY_CHARS);
  if (start === undefined) return undefined;
  const fromStart = mainTextHead(start.bodyHead, start.bodyComplete, url, templates, DISPLAY_HEAD_CHARS);
  if (fromStart !== undefined) return fromStart;
  const whole = source.wholeBody(id);
  return whole === undefined ? undefined : mainTextHead(whole, true, url, templates, DISPLAY_HEAD_CHARS);
}
