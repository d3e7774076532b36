import { analyzeText, type AnalyzedText } from './analyzer.js';
import type { IndexedDocument } from './indexed-document.js';
import { analyzeLines } from './template-split.js';
import { encodeDocumentPhrases } from './site/document-phrases.js';

/** What the analysis threads hand back for a document: its analyzed fields and its phrases. */
export interface AnalyzedPage {
  fields: AnalyzedText[];
  /** The phrases suggest may offer from its title and headings, stored form (document-phrases.ts). */
  phrases: Uint8Array;
}

/** A document analyzed for indexing: fields (FIELDS order) and the phrases of its title and headings. */
export function analyzePage(document: IndexedDocument): AnalyzedPage {
  return { fields: analyzeDocumentFields(document), phrases: phrasesOfDocument(document) };
}

/** The stored phrases of a document's title and headings (as stored: headings default to ''). */
export function phrasesOfDocument(document: Pick<IndexedDocument, 'title' | 'headings'>): Uint8Array {
  return encodeDocumentPhrases(document.title, document.headings ?? '');
}

/**
 * The analyzed fields of a document in FIELDS order (title, headings, description, body, URL,
 * links); the links field holds the template text by markup and the link entries.
 * A description that only repeats the start of the body is not indexed again, or pages without
 * a meta description would count their first words twice.
 */
export function analyzeDocumentFields(document: IndexedDocument): AnalyzedText[] {
  const description =
    document.description !== '' && !startsWithText(document.body, document.description)
      ? document.description
      : '';
  return [
    analyzeText(titleWords(document.title)),
    analyzeText(document.headings ?? ''),
    analyzeText(description),
    analyzeLines(document.body),
    analyzeText(urlWords(document.url)),
    // Landmark text and link entries still find the page (its own table of contents, its place
    // in the site), with less weight than its own text: they name other pages' subjects
    // (docs/reference/site-search.md, Listing pages); lines the whole site repeats are left out at
    // indexing (template-split.ts).
    analyzeLines(document.template ?? ''),
  ];
}

/**
 * A section number leading a title (`55.4.`, `F.41.`, `Chapter 31.`, `第17章`): numbering, not
 * words of the subject. Left out of the title field so that a title's share held by the query
 * (the title phrase bonus, docs/design/search-engine.md, Search engine) does not depend on how deep
 * the page sits in a manual; the number stays searchable in the headings and the body.
 */
const SECTION_NUMBER =
  /^(?:(?:chapter|appendix|part|section)\s+)?(?:\d+|[a-z])(?:\.\d+)*\.\s+|^第\s*\d+\s*[章節部]\s*|^付録\s*[a-z]\s+/i;

export function titleWords(title: string): string {
  const words = title.normalize('NFKC').replace(SECTION_NUMBER, '');
  return words.trim() === '' ? title : words;
}

/** Whether a body (lines separated by newlines) starts with a one-line text. */
function startsWithText(body: string, text: string): boolean {
  return body.slice(0, text.length).replaceAll('\n', ' ') === text;
}

/** The words of a URL's path and query (`/library/json.html` → library json html); the host is left out. */
function urlWords(url: string): string {
  try {
    const parsed = new URL(url);
    return safeDecode(`${parsed.pathname} ${parsed.search}`);
  } catch {
    return '';
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
