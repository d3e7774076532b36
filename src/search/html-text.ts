import { Parser } from 'htmlparser2';
import { type ElementView, matchesSelector } from '../domain/index.js';
import type { ContentSelectors } from './content-selectors.js';
import { LinkEntryTracker } from './link-entries.js';
import { OutgoingLinks } from './outgoing-links.js';
import { DeclaredLanguage } from './page-language.js';
import { isLandmark, type LandmarkContext } from './page-landmarks.js';
import { TableDefinitions } from './table-definitions.js';
import { nonSpaceCount, TextPieces } from './text-pieces.js';

/** The searchable text of an HTML page. */
export interface PageText {
  title: string;
  /**
   * The meta description; '' without one: the API then shows the start of the main text, cut
   * at search time once the site's repeated template lines are known
   * (docs/reference/site-search.md, Page templates).
   */
  description: string;
  /**
   * Text of headings (h1-h6) and definition terms (dt) of the main text, which name what a
   * section is about; documentation defines functions and options in dt elements, and in
   * tables as code starting a row (table-definitions.ts).
   */
  headings: string;
  /**
   * The main text: one line per block element (p, li, div...), whitespace collapsed inside a
   * line. Block lines are what repeated-block detection counts (template-blocks.ts).
   */
  body: string;
  /**
   * The page's template by its markup: text of nav, aside, page-level header and footer
   * elements (and their ARIA roles), and of everything outside `main` when the page has one
   * (docs/reference/site-search.md, Page templates); and its link entries, which point at other
   * pages (docs/reference/site-search.md, Listing pages). Kept apart from the body: not in
   * descriptions, in a snippet only when the main text shows no match, indexed in the
   * low-weight links field. A main text that is all link entries stays the body; a page with
   * no main text at all keeps its template as the body, so a page that is all navigation (a
   * site map) stays findable.
   */
  template: string;
  /** meta robots noindex: the page stays out of the index. */
  noindex: boolean;
  /**
   * The language the page declares (page-language.ts), '' without one: which of pages with the
   * same text a search shows (docs/reference/site-search.md, Pages with the same text).
   */
  language: string;
  /**
   * The pages this one links to, each once, not itself (outgoing-links.ts): what counts the links
   * pointing at a page, the next choice of pages with the same text after their language.
   */
  linksTo: string[];
}

/** Elements whose content is not text a reader sees. */
const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head']);
/** Elements that end a line of text, so words on either side do not run together. */
const BLOCKS = new Set([
  'p',
  'div',
  'br',
  'li',
  'ul',
  'ol',
  'dl',
  'table',
  'tr',
  'td',
  'th',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'section',
  'article',
  'main',
  'aside',
  'header',
  'footer',
  'nav',
  'dt',
  'dd',
  'pre',
  'blockquote',
  'figure',
  'figcaption',
  'form',
  'hr',
]);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'dt']);

/** Where a piece of text stands: inside `main`, inside a landmark, or neither. */
const enum Place {
  Main,
  Template,
  Outside,
}

interface Piece {
  text: string;
  place: Place;
  heading: boolean;
  /** The line break that ends a heading (the headings field holds one heading a line). */
  headingEnd?: true;
  /** A table definition's copy for the headings: its text is in the body already. */
  headingOnly?: true;
  /** The innermost entry (list item, term, heading) the text is in (link-entries.ts). */
  entry?: number;
  /** Inside a link to another page. */
  inLink?: true;
  /** The outermost article the text is in (link-entries.ts). */
  article?: number;
}

/** Pieces that may be one: the same place and entry, neither a heading's end nor a copy for the headings. */
function alikePieces(last: Piece, next: Piece): boolean {
  return (
    last.place === next.place &&
    last.heading === next.heading &&
    last.entry === next.entry &&
    last.inLink === next.inLink &&
    last.article === next.article &&
    last.headingEnd === undefined &&
    next.headingEnd === undefined &&
    last.headingOnly === undefined &&
    next.headingOnly === undefined
  );
}

/**
 * Title, description and visible text of a page, its main text apart from its template and its
 * link entries. A search service's content selectors (`selectors`) leave out what `exclude`
 * matches and make what `main` matches the main content, as a main element does. `pageUrl` tells
 * a link to another page from one to a place on this page; without it only `#fragment` links
 * are this page's.
 */
export function pageTextOf(html: string, selectors: ContentSelectors = {}, pageUrl?: string): PageText {
  let title = '';
  let description: string | undefined;
  let noindex = false;
  const language = new DeclaredLanguage(pageUrl);
  const linksTo = new OutgoingLinks(pageUrl);
  let inTitle = false;
  let hiddenDepth = 0;
  let headingDepth = 0;
  let sawMain = false;
  /** Open elements: whether each is a landmark (template), main or excluded, and its name. */
  const open: { name: string; template: boolean; main: boolean; excluded: boolean }[] = [];
  /** Open elements as selectors see them, when the service gives selectors. */
  const views: ElementView[] = [];
  const selecting = selectors.main !== undefined || selectors.exclude !== undefined;
  let templateDepth = 0;
  const context: LandmarkContext = { sectioningDepth: 0, mainDepth: 0 };
  const collected = new TextPieces<Piece>(alikePieces);
  const tables = new TableDefinitions();
  const links = new LinkEntryTracker(pageUrl);
  const place = (): Place =>
    templateDepth > 0 ? Place.Template : context.mainDepth > 0 ? Place.Main : Place.Outside;
  const lineBreak = () => collected.add({ text: '\n', place: place(), heading: false });
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'title') inTitle = true;
        language.see(name, attributes);
        linksTo.see(name, attributes);
        if (name === 'meta') {
          const metaName = (attributes.name ?? '').toLowerCase();
          if (metaName === 'description') description = attributes.content ?? '';
          if (metaName === 'robots' && /\bnoindex\b/i.test(attributes.content ?? '')) noindex = true;
        }
        if (HIDDEN.has(name)) hiddenDepth += 1;
        if (HEADINGS.has(name)) headingDepth += 1;
        if (BLOCKS.has(name)) lineBreak();
        const role = (attributes.role ?? '').trim().toLowerCase();
        const template = isLandmark(name, role, context);
        let main = name === 'main' || role === 'main';
        let excluded = false;
        if (selecting) {
          const view = { name, attributes };
          if (selectors.main !== undefined && matchesSelector(selectors.main, view, views)) main = true;
          excluded = selectors.exclude !== undefined && matchesSelector(selectors.exclude, view, views);
          views.push(view);
        }
        if (main) sawMain = true;
        if (excluded) hiddenDepth += 1;
        tables.open(name, open.length);
        links.open(name, attributes);
        open.push({ name, template, main, excluded });
        if (template) templateDepth += 1;
        if (main) context.mainDepth += 1;
        if (SECTIONING.has(name)) context.sectioningDepth += 1;
      },
      ontext(text) {
        if (inTitle) title += text;
        else if (hiddenDepth === 0) {
          const entry = links.current();
          const article = links.currentArticle();
          collected.add({
            text,
            place: place(),
            heading: headingDepth > 0,
            ...(entry !== undefined && { entry }),
            ...(article !== undefined && { article }),
            ...(links.inLink() && { inLink: true as const }),
          });
          tables.text(text);
        }
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        if (HEADINGS.has(name) && headingDepth > 0) {
          headingDepth -= 1;
          collected.add({ text: '\n', place: place(), heading: true, headingEnd: true });
        }
        if (HIDDEN.has(name)) hiddenDepth = Math.max(0, hiddenDepth - 1);
        if (BLOCKS.has(name)) lineBreak();
        const element = open.pop();
        links.close(name);
        if (selecting) views.pop();
        const definition = tables.close(name, open.length);
        if (definition !== undefined && headingDepth === 0) {
          collected.add({ text: definition, place: place(), heading: true, headingOnly: true });
          collected.add({ text: '\n', place: place(), heading: true, headingEnd: true, headingOnly: true });
        }
        if (element !== undefined) {
          if (element.excluded) hiddenDepth = Math.max(0, hiddenDepth - 1);
          if (element.template) templateDepth -= 1;
          if (element.main) context.mainDepth -= 1;
          if (SECTIONING.has(element.name)) context.sectioningDepth -= 1;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.end(html);
  const pieces = collected.pieces();
  // With a main element, what lies outside it is the page's frame; without one, the main text.
  const isMain = (piece: Piece) => piece.place === Place.Main || (piece.place === Place.Outside && !sawMain);
  const text = pieces.filter((piece) => piece.headingOnly !== true);
  let mainChars = 0;
  for (const piece of text) {
    if (!isMain(piece)) continue;
    mainChars += nonSpaceCount(piece.text);
    if (piece.entry !== undefined) links.count(piece.entry, piece.text, piece.inLink === true);
  }
  const linkEntries = links.linkEntries(mainChars);
  const teasers = links.teasers(linkEntries);
  /** The link entry or teaser a piece moves out of the main text with, if any. */
  const movedWith = (piece: Piece): string | undefined =>
    piece.article !== undefined && teasers.has(piece.article)
      ? `article ${piece.article}`
      : piece.entry !== undefined && linkEntries.has(piece.entry)
        ? `entry ${piece.entry}`
        : undefined;
  const moved = (piece: Piece) => movedWith(piece) !== undefined;
  const { main, rest } = splitText(text, (piece) => isMain(piece) && !moved(piece), movedWith);
  let body = main;
  let template = rest;
  let headingPieces = pieces.filter((piece) => piece.heading && isMain(piece) && !moved(piece));
  if (body === '') {
    // A main text that is nothing but link entries (a bare list of links) is the page's text.
    const unmoved = splitText(text, isMain, () => undefined);
    body = unmoved.main;
    template = unmoved.rest;
    headingPieces = pieces.filter((piece) => piece.heading && isMain(piece));
  }
  if (body === '') {
    body = template;
    template = '';
    headingPieces = pieces.filter((piece) => piece.heading);
  }
  return {
    title: collapse(title),
    description: collapse(description ?? ''),
    // One heading a line: suggest cuts phrases at heading boundaries (docs/reference/site-search.md, Suggest).
    headings: linesOf(
      headingPieces.map((piece) => (piece.headingEnd ? '\n' : piece.text.replace(/\s+/g, ' '))),
    ),
    body,
    template,
    noindex,
    language: language.value(),
    linksTo: linksTo.value(),
  };
}

/**
 * The pieces `isMain` accepts as one text, the others as another, each cut into lines. A link
 * entry taken out of the main text starts and ends a line on both sides, so the text around it
 * does not run together and its own text stays a line of its own.
 */
function splitText(
  pieces: readonly Piece[],
  isMain: (piece: Piece) => boolean,
  movedWith: (piece: Piece) => string | undefined,
): { main: string; rest: string } {
  const main: string[] = [];
  const rest: string[] = [];
  let previousMoved: string | undefined;
  for (const piece of pieces) {
    const movedEntry = movedWith(piece);
    if (movedEntry !== previousMoved) {
      main.push('\n');
      rest.push('\n');
      previousMoved = movedEntry;
    }
    (isMain(piece) ? main : rest).push(piece.text);
  }
  return { main: linesOf(main), rest: linesOf(rest) };
}

/** Elements inside which header and footer belong to a section, not to the page. */
const SECTIONING = new Set(['article', 'aside', 'main', 'nav', 'section']);

/** Text cut into its block lines, whitespace collapsed inside each, empty lines dropped. */
function linesOf(texts: readonly string[]): string {
  return texts
    .join('')
    .split('\n')
    .map(collapse)
    .filter((line) => line !== '')
    .join('\n');
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
