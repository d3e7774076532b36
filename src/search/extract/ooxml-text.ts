import { OoxmlPackage } from './ooxml-package.js';
import type { TextSink } from './text-sink.js';
import { prefixedAttribute, walkXml } from './xml-walk.js';

/** Word: the document, then its footnotes and endnotes; headers and footers repeat, so they are left out. */
export async function docxText(bytes: Uint8Array, body: TextSink): Promise<string> {
  const pkg = OoxmlPackage.open(bytes);
  const main = pkg.mainPart();
  const notes = ['footnotes', 'endnotes'].map((type) => pkg.related(main, type));
  for (const part of [main, ...notes]) {
    if (part === undefined || body.exhausted) continue;
    const xml = pkg.part(part);
    if (xml === undefined && part === main) throw new Error(`missing part ${main}`);
    if (xml !== undefined) wordprocessingText(xml, body);
  }
  return pkg.title();
}

/** Excel: each sheet's name, then its cells row by row; shared strings are looked up, formulas left out. */
export async function xlsxText(bytes: Uint8Array, body: TextSink): Promise<string> {
  const pkg = OoxmlPackage.open(bytes);
  const workbook = pkg.mainPart();
  const workbookXml = pkg.part(workbook);
  if (workbookXml === undefined) throw new Error(`missing part ${workbook}`);
  const sharedPart = pkg.related(workbook, 'sharedStrings');
  const shared = sharedStringsOf((sharedPart && pkg.part(sharedPart)) ?? '');
  const targets = new Map(pkg.relationships(workbook).map((r) => [r.id, r.target]));
  for (const sheet of sheetsOf(workbookXml)) {
    if (body.exhausted) break;
    body.text(sheet.name);
    body.lineBreak();
    const part = targets.get(sheet.relationshipId);
    const xml = part === undefined ? undefined : pkg.part(part);
    if (xml !== undefined) sheetText(xml, shared, body);
    body.lineBreak();
  }
  return pkg.title();
}

/** PowerPoint: each slide in presentation order, followed by its speaker notes. */
export async function pptxText(bytes: Uint8Array, body: TextSink): Promise<string> {
  const pkg = OoxmlPackage.open(bytes);
  const presentation = pkg.mainPart();
  const presentationXml = pkg.part(presentation);
  if (presentationXml === undefined) throw new Error(`missing part ${presentation}`);
  const targets = new Map(pkg.relationships(presentation).map((r) => [r.id, r.target]));
  for (const id of slideIdsOf(presentationXml)) {
    if (body.exhausted) break;
    const slide = targets.get(id);
    if (slide === undefined) continue;
    const notes = pkg.related(slide, 'notesSlide');
    for (const xml of pkg.parts(notes === undefined ? [slide] : [slide, notes]).values())
      drawingText(xml, body);
    body.lineBreak();
  }
  return pkg.title();
}

function wordprocessingText(xml: string, body: TextSink): void {
  let inText = false;
  walkXml(xml, {
    open(name) {
      if (name === 't') inText = true;
      else if (name === 'tab') body.space();
      else if (name === 'br' || name === 'cr') body.lineBreak();
    },
    text(text) {
      if (inText) body.text(text);
    },
    close(name) {
      if (name === 't') inText = false;
      else if (name === 'p') body.lineBreak();
    },
    done: () => body.exhausted,
  });
}

/** Slide or notes text. Fields (slide numbers, dates) are left out: they are not the author's words. */
function drawingText(xml: string, body: TextSink): void {
  let inText = false;
  let fieldDepth = 0;
  walkXml(xml, {
    open(name) {
      if (name === 't') inText = true;
      else if (name === 'fld') fieldDepth += 1;
      else if (name === 'br') body.lineBreak();
    },
    text(text) {
      if (inText && fieldDepth === 0) body.text(text);
    },
    close(name) {
      if (name === 't') inText = false;
      else if (name === 'fld') fieldDepth -= 1;
      else if (name === 'p') body.lineBreak();
    },
    done: () => body.exhausted,
  });
}

/** The shared string table. Phonetic guides (rPh, furigana over Japanese) are not part of the string. */
function sharedStringsOf(xml: string): string[] {
  const strings: string[] = [];
  let current = '';
  let inText = false;
  let phoneticDepth = 0;
  walkXml(xml, {
    open(name) {
      if (name === 'si') current = '';
      else if (name === 't') inText = true;
      else if (name === 'rPh') phoneticDepth += 1;
    },
    text(text) {
      if (inText && phoneticDepth === 0) current += text;
    },
    close(name) {
      if (name === 't') inText = false;
      else if (name === 'rPh') phoneticDepth -= 1;
      else if (name === 'si') strings.push(current);
    },
  });
  return strings;
}

function sheetsOf(workbookXml: string): { name: string; relationshipId: string }[] {
  const sheets: { name: string; relationshipId: string }[] = [];
  walkXml(workbookXml, {
    open(name, attributes) {
      const relationshipId = prefixedAttribute(attributes, 'id');
      if (name === 'sheet' && relationshipId !== undefined)
        sheets.push({ name: attributes.name ?? '', relationshipId });
    },
  });
  return sheets;
}

/** Cell values row by row: strings, numbers and formula results; booleans and errors are left out. */
function sheetText(xml: string, shared: readonly string[], body: TextSink): void {
  let type = '';
  let value = '';
  let inValue = false;
  let phoneticDepth = 0;
  walkXml(xml, {
    open(name, attributes) {
      if (name === 'c') {
        type = attributes.t ?? 'n';
        value = '';
      } else if (name === 'v' || name === 't') inValue = true;
      else if (name === 'rPh') phoneticDepth += 1;
    },
    text(text) {
      if (inValue && phoneticDepth === 0) value += text;
    },
    close(name) {
      if (name === 'v' || name === 't') inValue = false;
      else if (name === 'rPh') phoneticDepth -= 1;
      else if (name === 'c') {
        if (value !== '' && type !== 'b' && type !== 'e') {
          body.text(type === 's' ? (shared[Number(value)] ?? '') : value);
        }
        body.space();
      } else if (name === 'row') body.lineBreak();
    },
    done: () => body.exhausted,
  });
}

function slideIdsOf(presentationXml: string): string[] {
  const ids: string[] = [];
  walkXml(presentationXml, {
    open(name, attributes) {
      const id = prefixedAttribute(attributes, 'id');
      if (name === 'sldId' && id !== undefined) ids.push(id);
    },
  });
  return ids;
}
