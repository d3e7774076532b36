import type { ExtractableKind } from './extractable-kind.js';
import type { TextSink } from './text-sink.js';

/** Writes a document's body text into the sink and resolves to its metadata title ('' if none). */
export type FormatExtractor = (bytes: Uint8Array, body: TextSink) => Promise<string>;

/**
 * The extractor for a kind. Each format's parser is loaded only when a document of that kind comes,
 * so a worker that sees only office files never loads the PDF library.
 */
export async function extractByKind(
  bytes: Uint8Array,
  kind: ExtractableKind,
  body: TextSink,
): Promise<string> {
  switch (kind) {
    case 'pdf':
      return (await import('./pdf-text.js')).pdfText(bytes, body);
    case 'docx':
      return (await import('./ooxml-text.js')).docxText(bytes, body);
    case 'xlsx':
      return (await import('./ooxml-text.js')).xlsxText(bytes, body);
    case 'pptx':
      return (await import('./ooxml-text.js')).pptxText(bytes, body);
    case 'doc':
      return (await import('./legacy-office-text.js')).docText(bytes, body);
    case 'xls':
      return (await import('./legacy-office-text.js')).xlsText(bytes, body);
    case 'ppt':
      return (await import('./legacy-office-text.js')).pptText(bytes, body);
  }
}
