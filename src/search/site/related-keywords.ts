import { analyzeText, normalizeText, WORD_MARK } from '../analyzer.js';
import type { StoredDocument } from '../../store/sqlite/search-index-store.js';
import { mainTextOf, mainTitleOf, type TemplateBlocks } from '../template-blocks.js';
import { isJapanese, type Vocabulary } from './vocabulary.js';

/** Related keywords returned at most (docs/reference/site-search.md, Related keywords). */
export const MAX_RELATED_KEYWORDS = 10;
/** Characters of a document's body read for its words. */
const BODY_SAMPLE_CHARS = 5000;

/** Words too common in English to say anything about a topic. */
const STOP_WORDS = new Set(
  (
    'the and for are but not you all any can had her was one our out has him his how its may new now old see ' +
    'two way who did get let say she too use with that this from they will would there their what about which ' +
    'when make like time just know take into your some could them than then these other more also been have ' +
    'were said each only over such most very even back after well where much must should does here those while'
  ).split(' '),
);

/**
 * Words significant in the documents matching a query compared with the whole index
 * (docs/reference/site-search.md, Related keywords), starting with `prefix`, the query's own words
 * left out. A word's score is its share of the matching documents times the log of how much more
 * often it occurs there than in the index at large (the pointwise KL divergence used by
 * significant-terms aggregations), so words that merely occur everywhere score nothing. Only the
 * main text counts: a site's template (docs/reference/site-search.md, Page templates) is on the
 * matching pages because it is on every page, and says nothing about the query.
 */
export function relatedKeywords(
  query: string,
  prefix: string,
  documents: readonly StoredDocument[],
  vocabulary: Vocabulary,
  templateBlocks: TemplateBlocks = new Map(),
): string[] {
  if (documents.length === 0) return [];
  const queryWords = new Set(wordsOf(query));
  const normalizedPrefix = normalizeText(prefix).trim();
  const foreground = new Map<string, number>();
  for (const document of documents) {
    const main = mainTextOf(document.body.slice(0, BODY_SAMPLE_CHARS), document.url, templateBlocks);
    const title = mainTitleOf(document.title, document.url, templateBlocks);
    const text = `${title}\n${document.headings}\n${document.description}\n${main}`;
    for (const word of new Set(wordsOf(text))) {
      if (!word.startsWith(normalizedPrefix) || queryWords.has(word) || !isKeyword(word)) continue;
      foreground.set(word, (foreground.get(word) ?? 0) + 1);
    }
  }
  const total = Math.max(1, vocabulary.documentCount);
  const minimumCount = documents.length >= 5 ? 2 : 1;
  const scored: { word: string; score: number }[] = [];
  for (const [word, count] of foreground) {
    if (count < minimumCount) continue;
    const background =
      (isJapanese(word) ? vocabulary.japanese.get(word) : vocabulary.latin.get(word)) ?? count;
    const foregroundShare = count / documents.length;
    const backgroundShare = Math.max(background, count) / total;
    const score = foregroundShare * Math.log(foregroundShare / backgroundShare);
    if (score > 0) scored.push({ word, score });
  }
  return scored
    .sort((a, b) => b.score - a.score || (a.word < b.word ? -1 : 1))
    .slice(0, MAX_RELATED_KEYWORDS)
    .map((entry) => entry.word);
}

/** Latin words and Japanese words (word view) of a text, normalized. */
function wordsOf(text: string): string[] {
  const analyzed = analyzeText(text);
  const latin = analyzed.stream.filter((token) => !isJapanese(token));
  return [...latin, ...analyzed.words.map((word) => word.slice(WORD_MARK.length))];
}

function isKeyword(word: string): boolean {
  if (isJapanese(word)) return [...word].length >= 2 && !/^[\p{Script=Hiragana}ー]+$/u.test(word);
  return word.length >= 3 && !/^\d+$/.test(word) && !STOP_WORDS.has(word);
}
