import CFB from 'cfb';
import type { CFB$Container } from 'cfb';
import WordExtractor from 'word-extractor';
import { summaryTitle } from './ole-summary.js';
import { pptRecordText } from './ppt-record-text.js';
import type { TextSink } from './text-sink.js';
import { xlsRecordText } from './xls-biff-text.js';

const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** Word 97-2003: body, footnotes, endnotes and text boxes, as the word-extractor library reads them. */
export async function docText(bytes: Uint8Array, body: TextSink): Promise<string> {
  const container = openCompoundFile(bytes);
  if (!stream(container, 'WordDocument')) throw new Error('no WordDocument stream');
  const document = await new WordExtractor().extract(Buffer.from(bytes));
  for (const text of [
    document.getBody(),
    document.getFootnotes(),
    document.getEndnotes(),
    document.getTextboxes({ includeHeadersAndFooters: false, includeBody: true }),
  ]) {
    body.text(text);
    body.lineBreak();
  }
  return titleOf(container);
}

/** Excel 97-2003. */
export async function xlsText(bytes: Uint8Array, body: TextSink): Promise<string> {
  const container = openCompoundFile(bytes);
  // Excel 5 named the stream 'Book'; only the BIFF8 'Workbook' of Excel 97 and later is read.
  const workbook = stream(container, 'Workbook');
  if (!workbook) throw new Error('no Workbook stream (not an Excel 97 or later file)');
  xlsRecordText(workbook, body);
  return titleOf(container);
}

/** PowerPoint 97-2003. */
export async function pptText(bytes: Uint8Array, body: TextSink): Promise<string> {
  const container = openCompoundFile(bytes);
  const document = stream(container, 'PowerPoint Document');
  if (!document) throw new Error('no PowerPoint Document stream');
  pptRecordText(document, body);
  return titleOf(container);
}

/** The OLE compound file that holds the legacy formats' streams. */
function openCompoundFile(bytes: Uint8Array): CFB$Container {
  // The reader also takes zip files; a legacy kind must really be a compound file.
  if (!OLE_SIGNATURE.every((byte, index) => bytes[index] === byte))
    throw new Error('not an OLE compound file');
  try {
    return CFB.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { type: 'buffer' });
  } catch (error) {
    throw new Error(
      `unreadable OLE compound file (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

/** A stream at the top of the compound file (not one inside an embedded object). */
function stream(container: CFB$Container, name: string): Uint8Array | undefined {
  const entry = CFB.find(container, `/${name}`);
  if (!entry || entry.type !== 2 || !entry.content) return undefined;
  const content = entry.content instanceof Uint8Array ? entry.content : Uint8Array.from(entry.content);
  return content.subarray(0, entry.size);
}

function titleOf(container: CFB$Container): string {
  const summary = stream(container, '\u0005SummaryInformation');
  return summary ? summaryTitle(summary) : '';
}
