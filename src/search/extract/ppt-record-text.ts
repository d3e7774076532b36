import type { TextSink } from './text-sink.js';

const TEXT_CHARS_ATOM = 0x0fa0;
const TEXT_BYTES_ATOM = 0x0fa8;
const SLIDE_LIST_WITH_TEXT = 0x0ff0;
const NOTES = 0x03f0;
const NOTES_ATOM = 0x03f1;
/** SlideListWithText instance holding the master slides' text. */
const MASTER_TEXT_INSTANCE = 1;
const CRYPT_SESSION = 0x2f14;
/** Masters and handouts hold template text ("Click to edit the title"), not the author's. */
const SKIPPED_CONTAINERS: ReadonlySet<number> = new Set([0x03f8, 0x0fc9]);
/** A field (slide number, date, footer) stands in the text as a lone '*'. */
const FIELD_PLACEHOLDER = '*';
/** Deeper nesting than real presentations have: a hostile file could otherwise recurse without end. */
const MAX_DEPTH = 32;

/**
 * Text of a PowerPoint 97-2003 'PowerPoint Document' stream: its records are walked and every text
 * atom, in slides, notes and text boxes, is taken in file order.
 */
export function pptRecordText(stream: Uint8Array, body: TextSink): void {
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  const utf16 = new TextDecoder('utf-16le');
  /** The notes master is a Notes container whose NotesAtom links to no slide. */
  const isNotesMaster = (start: number, end: number): boolean =>
    start + 12 <= end &&
    view.getUint16(start + 2, true) === NOTES_ATOM &&
    view.getUint32(start + 8, true) === 0;
  const walk = (start: number, end: number, depth: number): void => {
    let at = start;
    while (at + 8 <= end && !body.exhausted) {
      const versionAndInstance = view.getUint16(at, true);
      const type = view.getUint16(at + 2, true);
      const dataStart = at + 8;
      const dataEnd = Math.min(end, dataStart + view.getUint32(at + 4, true));
      at = dataEnd;
      if (type === CRYPT_SESSION) throw new Error('the presentation is encrypted');
      if ((versionAndInstance & 0x0f) === 0x0f) {
        const skipped =
          SKIPPED_CONTAINERS.has(type) ||
          (type === SLIDE_LIST_WITH_TEXT && versionAndInstance >> 4 === MASTER_TEXT_INSTANCE) ||
          (type === NOTES && isNotesMaster(dataStart, dataEnd));
        if (!skipped && depth < MAX_DEPTH) walk(dataStart, dataEnd, depth + 1);
      } else if (type === TEXT_CHARS_ATOM || type === TEXT_BYTES_ATOM) {
        const data = stream.subarray(dataStart, dataEnd);
        // Byte atoms hold UTF-16 code units with their zero high byte dropped, that is ISO-8859-1.
        const text = type === TEXT_CHARS_ATOM ? utf16.decode(data) : Buffer.from(data).toString('latin1');
        if (text.trim() !== FIELD_PLACEHOLDER) body.text(text);
        body.lineBreak();
      }
    }
  };
  walk(0, stream.length, 0);
}
