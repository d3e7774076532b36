import { normalizeText } from '../analyzer.js';

/**
 * The phrases suggest may offer from one title part or heading (docs/reference/site-search.md,
 * Suggest): runs of 1 to MAX_PHRASE_WORDS words that never cross a boundary (punctuation, the
 * end of the line: a heading, a title part) and that start and end with a topic word. Japanese
 * is cut by Intl.Segmenter (the word view of the index), whose cuts inside a compound are not
 * always a reader's (カラーピッ|カー); so a Japanese phrase starts and ends only where a
 * particle, a space, a Latin word or a boundary is next to it: 仮想ホストの設定 offers
 * 仮想ホスト and 仮想ホストの設定, never 仮想ホストの設.
 */

/** Words of a phrase at most (particles not counted): longer runs are sentences, not what people type. */
export const MAX_PHRASE_WORDS = 4;
/** Longer phrases are never offered: a completion must fit a suggest box. */
const MAX_PHRASE_CHARS = 60;

const JAPANESE = String.raw`[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆ヶ]`;
/**
 * A Japanese run; a Latin word, identifiers included (`pg_stat_activity`, `json.dumps`,
 * `floating-point`: `_` is a letter here, and `.`, `-`, `/`, `'` join two letters); a space; any
 * other character, which is a boundary.
 */
const TOKENS = new RegExp(
  String.raw`(${JAPANESE}+)|((?:(?!${JAPANESE})[\p{L}\p{N}\p{M}_])+(?:[.\-/'](?:(?!${JAPANESE})[\p{L}\p{N}\p{M}_])+)*)|(\s+)|.`,
  'gu',
);
const LETTER = /\p{L}/gu;
const JAPANESE_WORD = new RegExp(JAPANESE, 'u');
const HIRAGANA_ONLY = /^[\p{Script=Hiragana}ー]+$/u;

/**
 * English words that are never a topic by themselves: a phrase neither starts nor ends with one
 * ("see also", "index on" are not offered; "zen of python" is).
 */
const STOP_WORDS = new Set(
  (
    'a an the and or but nor if of to in on at by for from with as is are was were be been being it its this ' +
    'that these those not no see also into onto via vs than then so such can may will shall how what when ' +
    'where which who whom why your you we our us their there here more most other some any all each about ' +
    'do does did has have had i he she they them his her my me etc e.g i.e'
  ).split(' '),
);
/** Japanese particles and auxiliaries longer than two kana that still never end a topic. */
const JAPANESE_STOP_WORDS = new Set([
  'について',
  'における',
  'による',
  'として',
  'ください',
  'します',
  'される',
]);

const segmenter = new Intl.Segmenter('ja', { granularity: 'word' });

interface Word {
  start: number;
  end: number;
  text: string;
  /** A Japanese particle (の, を, に, から): a phrase may end before it and start after it. */
  particle: boolean;
  /** Whether a phrase may start at this word, and end with it. */
  opens: boolean;
  closes: boolean;
}

/** A phrase of a line with its head: the longest shorter phrase it starts with, if any. */
export interface LinePhrase {
  phrase: string;
  head?: string;
}

/** Where a phrase lies in its normalized line, and the index of its head among the line's phrases (-1: none). */
export interface PhraseSpan {
  start: number;
  end: number;
  head: number;
}

/** A line normalized (NFKC, lower case) with the spans of its distinct phrases. */
export interface LineSpans {
  text: string;
  spans: PhraseSpan[];
}

/** Distinct phrases of a line (a title part or one heading), normalized (NFKC, lower case). */
export function phrasesOfLine(line: string): LinePhrase[] {
  const { text, spans } = phraseSpansOfLine(line);
  const phrases = spans.map((span) => phraseAt(text, span));
  return spans.map((span, index) =>
    span.head < 0 ? { phrase: phrases[index]! } : { phrase: phrases[index]!, head: phrases[span.head]! },
  );
}

/** The phrase a span holds: its text, spaces collapsed. */
export function phraseAt(text: string, span: { start: number; end: number }): string {
  return text.slice(span.start, span.end).replace(/\s+/g, ' ');
}

/**
 * The phrases of a line as spans of its normalized text, which is how they are stored with a
 * document (document-phrases.ts): the line once, two or three small numbers per phrase.
 */
export function phraseSpansOfLine(line: string): LineSpans {
  const text = normalizeText(line);
  const phrases = new Map<string, number>();
  const spans: PhraseSpan[] = [];
  const add = (phrase: string, start: number, end: number, head: string | undefined) => {
    if (phrases.has(phrase)) return;
    phrases.set(phrase, spans.length);
    spans.push({ start, end, head: head === undefined ? -1 : phrases.get(head)! });
  };
  for (const chunk of chunksOf(text)) {
    for (let first = 0; first < chunk.length; first += 1) {
      if (!chunk[first]!.opens || !isEdgeWord(chunk[first]!.text)) continue;
      let words = 0;
      let head: string | undefined;
      for (let end = first; end < chunk.length && words < MAX_PHRASE_WORDS; end += 1) {
        if (!chunk[end]!.particle) words += 1;
        if (!chunk[end]!.closes || !isEdgeWord(chunk[end]!.text)) continue;
        const span = { start: chunk[first]!.start, end: chunk[end]!.end };
        const phrase = phraseAt(text, span);
        if (phrase.length > MAX_PHRASE_CHARS || [...phrase].length < 2) continue;
        add(phrase, span.start, span.end, head);
        head = phrase;
      }
    }
    // A dotted name is also offered by its last part: `json.dumps` is searched as `dumps`.
    for (const { text: word, end } of chunk) {
      const dot = word.lastIndexOf('.');
      const name = word.slice(dot + 1);
      if (dot > 0 && isEdgeWord(name)) add(name, end - name.length, end, undefined);
    }
  }
  return { text, spans };
}

/** The runs of words between boundaries, Japanese runs cut by the segmenter. */
function chunksOf(text: string): Word[][] {
  const chunks: Word[][] = [];
  let chunk: Word[] = [];
  const close = () => {
    if (chunk.length > 0) chunks.push(chunk);
    chunk = [];
  };
  for (const match of text.matchAll(TOKENS)) {
    const start = match.index;
    if (match[1] !== undefined) {
      const segments = [...segmenter.segment(match[1])];
      const words = segments.map((segment) => ({
        start: start + segment.index,
        end: start + segment.index + segment.segment.length,
        text: segment.segment,
        particle: isParticle(segment.segment),
        opens: false,
        closes: false,
      }));
      // Inside a Japanese run, a phrase starts and ends only next to a particle or at the run's ends.
      words.forEach((word, index) => {
        word.opens = index === 0 || words[index - 1]!.particle;
        word.closes = index === words.length - 1 || words[index + 1]!.particle;
      });
      chunk.push(...words);
    } else if (match[2] !== undefined) {
      chunk.push({
        start,
        end: start + match[2].length,
        text: match[2],
        particle: false,
        opens: true,
        closes: true,
      });
    } else if (match[3] === undefined) {
      close();
    }
  }
  close();
  return chunks;
}

/** Case particles and the like, which join the parts of a heading (仮想ホストの設定, キャンバスをレイヤーに合わせる). */
const PARTICLES = new Set([
  'の',
  'を',
  'に',
  'へ',
  'で',
  'と',
  'が',
  'は',
  'も',
  'や',
  'から',
  'まで',
  'より',
]);

/**
 * Whether a segment is a particle. Other short kana after a kanji are endings of one word (並べ,
 * 使う), which the segmenter may cut off: no phrase ends before them.
 */
function isParticle(word: string): boolean {
  return PARTICLES.has(word);
}

/** Whether a phrase may start or end with the word. */
function isEdgeWord(word: string): boolean {
  if (JAPANESE_WORD.test(word)) {
    if (HIRAGANA_ONLY.test(word)) return [...word].length > 2 && !JAPANESE_STOP_WORDS.has(word);
    return true;
  }
  // At least two letters: section numbers (`5.4.1`, `f.32`) and single letters are no topic.
  return (word.match(LETTER)?.length ?? 0) >= 2 && !STOP_WORDS.has(word);
}
