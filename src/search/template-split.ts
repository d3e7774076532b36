/**
 * The body field of a document analyzed line by line, so that the lines its site repeats
 * (template-blocks.ts) can be left out of the index when the batch is written, without analyzing
 * the text again: the analysis runs in worker threads before the counts of the batch are known.
 */
import { analyzeText, type AnalyzedText } from './analyzer.js';
import { blockHashOf, MAX_BLOCK_CHARS } from './template-blocks.js';
import { FIELDS } from './engine/fields.js';

/** Where each line of an analyzed text ends in its stream and word lists, and its block hash. */
export interface LineSpans {
  /** The line's block hash; -1 for a line too long to be counted. */
  hashes: number[];
  streamEnds: number[];
  wordEnds: number[];
}

/** An analyzed text with its lines. */
export interface LinedText extends AnalyzedText {
  lines: LineSpans;
}

/** Analyzes a text of lines (a body) as analyzeText does, recording where each line ends. */
export function analyzeLines(text: string): LinedText {
  const stream: string[] = [];
  const words: string[] = [];
  const lines: LineSpans = { hashes: [], streamEnds: [], wordEnds: [] };
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const analyzed = analyzeText(line);
    for (const token of analyzed.stream) stream.push(token);
    for (const word of analyzed.words) words.push(word);
    lines.hashes.push(line.length <= MAX_BLOCK_CHARS ? blockHashOf(line) : -1);
    lines.streamEnds.push(stream.length);
    lines.wordEnds.push(words.length);
  }
  return { stream, words, lines };
}

function hasLines(text: AnalyzedText): text is LinedText {
  return (text as Partial<LinedText>).lines !== undefined;
}

/** The fields analyzed by lines, whose template lines are left out: the body, then the links. */
const LINED_FIELDS = [FIELDS.indexOf('body'), FIELDS.indexOf('links')];

/**
 * A document's fields with the tokens of its template lines taken out of the body and links
 * fields, so that a site's navigation, breadcrumbs and footers neither match nor count in the
 * ranking (docs/reference/site-search.md, Page templates). A page whose every line is template is
 * kept whole. The line records are dropped: segments store tokens only.
 */
export function withoutTemplateLines(
  fields: readonly AnalyzedText[],
  template: ReadonlySet<number> | undefined,
): AnalyzedText[] {
  const result = [...fields];
  const lined = LINED_FIELDS.filter((field) => hasLines(fields[field]!));
  // A page that is all template (an index page) keeps its text, as its description does.
  const kept = lined.reduce(
    (sum, field) =>
      sum +
      (template === undefined
        ? 0
        : (fields[field] as LinedText).lines.hashes.filter((hash) => !template.has(hash)).length),
    0,
  );
  const all = lined.reduce((sum, field) => sum + (fields[field] as LinedText).lines.hashes.length, 0);
  for (const field of lined) {
    const text = fields[field] as LinedText;
    result[field] =
      template === undefined || kept === all || kept === 0
        ? { stream: text.stream, words: text.words }
        : withoutLines(text, template);
  }
  return result;
}

/** The tokens of the lines of `text` whose hash is not in `template`. */
function withoutLines(text: LinedText, template: ReadonlySet<number>): AnalyzedText {
  const stream: string[] = [];
  const words: string[] = [];
  let streamStart = 0;
  let wordStart = 0;
  text.lines.hashes.forEach((hash, line) => {
    const streamEnd = text.lines.streamEnds[line]!;
    const wordEnd = text.lines.wordEnds[line]!;
    if (!template.has(hash)) {
      for (let at = streamStart; at < streamEnd; at += 1) stream.push(text.stream[at]!);
      for (let at = wordStart; at < wordEnd; at += 1) words.push(text.words[at]!);
    }
    streamStart = streamEnd;
    wordStart = wordEnd;
  });
  return { stream, words };
}

/** Whether a document's lines (body and template text) hold any of `blocks`. */
export function holdsAnyBlock(body: string, template: string, blocks: ReadonlySet<number>): boolean {
  for (const text of [body, template]) {
    for (const line of text.split('\n')) {
      if (line !== '' && line.length <= MAX_BLOCK_CHARS && blocks.has(blockHashOf(line))) return true;
    }
  }
  return false;
}
