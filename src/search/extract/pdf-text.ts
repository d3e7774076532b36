import { fileURLToPath } from 'node:url';
import { getDocument, VerbosityLevel } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { TextSink } from './text-sink.js';

/** Pages read at most: past this a document is an archive, and its start says what it is about. */
const MAX_PAGES = 2_000;

const PDFJS_ROOT = new URL('../../', import.meta.resolve('pdfjs-dist/legacy/build/pdf.mjs'));
/**
 * Adobe's predefined CMaps: Japanese PDFs often use fonts that are not embedded (UniJIS-UCS2-H,
 * 90ms-RKSJ-H...) and carry no ToUnicode map, so their text is readable only through these.
 */
const CMAP_DIR = fileURLToPath(new URL('cmaps/', PDFJS_ROOT));
const STANDARD_FONT_DIR = fileURLToPath(new URL('standard_fonts/', PDFJS_ROOT));

/** Text of each page, a line break between pages; resolves to the Info or XMP title. */
export async function pdfText(bytes: Uint8Array, body: TextSink): Promise<string> {
  const task = getDocument({
    data: bytes,
    cMapUrl: CMAP_DIR,
    cMapPacked: true,
    standardFontDataUrl: STANDARD_FONT_DIR,
    // Nothing is rendered, and a document's fonts or scripts must not become code.
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    enableXfa: false,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    verbosity: VerbosityLevel.ERRORS,
  });
  try {
    const document = await task.promise;
    const title = await titleOf(document);
    const pages = Math.min(document.numPages, MAX_PAGES);
    for (let number = 1; number <= pages && !body.exhausted; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      for (const item of content.items) {
        if (!('str' in item)) continue;
        body.text(item.str);
        if (item.hasEOL) body.lineBreak();
      }
      body.lineBreak();
      page.cleanup();
    }
    return title;
  } finally {
    await task.destroy();
  }
}

async function titleOf(document: PDFDocumentProxy): Promise<string> {
  const { info, metadata } = await document.getMetadata();
  const infoTitle: unknown = (info as Record<string, unknown>)['Title'];
  if (typeof infoTitle === 'string' && infoTitle.trim() !== '') return infoTitle;
  // The type says always present, but a document without an XMP stream has none.
  const xmpTitle: unknown = (metadata as typeof metadata | null)?.get('dc:title');
  return typeof xmpTitle === 'string' ? xmpTitle : '';
}
