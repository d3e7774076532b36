import { analyzeText, type AnalyzedText } from './analyzer.js';
import type { IndexedDocument } from './indexed-document.js';

/**
 * The analyzed fields of a document in FIELDS order (title, headings, description, body, URL).
 * A description that only repeats the start of the body is not indexed again, or pages without
 * a meta description would count their first words twice.
 */
export function analyzeDocumentFields(document: IndexedDocument): AnalyzedText[] {
  const description =
    document.description !== '' && !document.body.startsWith(document.description)
      ? document.description
      : '';
  return [
    analyzeText(document.title),
    analyzeText(document.headings ?? ''),
    analyzeText(description),
    analyzeText(document.body),
    analyzeText(urlWords(document.url)),
  ];
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
