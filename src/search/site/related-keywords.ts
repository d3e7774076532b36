import { analyzeText, normalizeText, WORD_MARK } from '../analyzer.js';
import { inflectedForms } from '../word-forms/inflections.js';
import type { QueryTree } from '../query-tree.js';
import type { StoredDocument } from '../storage/stored-document.js';
import { mainTextOf, mainTitleOf, type TemplateBlocks } from '../template-blocks.js';
import type { KeywordBackground } from './keyword-background.js';
import { candidatesOf, passagesOf, type Candidate } from './keyword-passages.js';
import { logLikelihoodRatio } from './likelihood-ratio.js';
import { isJapanese } from './vocabulary.js';

/** Related keywords returned at most (docs/reference/site-search.md, Related keywords). */
export const MAX_RELATED_KEYWORDS = 10;
/**
 * Share of the matching documents (by weight) a word must be found in, and at least two of them:
 * a word of one page is that page's, not the query's, however rare it is elsewhere.
 */
const MIN_SUPPORT_SHARE = 0.06;

/**
 * Mentions of the query that make a page count fully; a page mentioning it once (a release note
 * listing fixes) counts for a third: its words are mostly about its own topic, and names or
 * phrases it repeats on every page of its kind must not pass for the query's company.
 */
const FULL_WEIGHT_MENTIONS = 3;

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
 * left out. A document contributes the keywords of its title and of the text around its mentions
 * of the query (keyword-passages.ts); a word's score is Dunning's log-likelihood ratio of being in
 * that many of the matches when it is in so many documents of the index, kept when it is more
 * frequent among the matches and found in enough of them. Only the main text counts: a site's
 * template (docs/reference/site-search.md, Page templates) is on the matching pages because it
 * is on every page, and says nothing about the query.
 */
export function relatedKeywords(
  query: QueryTree,
  prefix: string,
  documents: readonly StoredDocument[],
  background: KeywordBackground,
  templateBlocks: TemplateBlocks = new Map(),
): string[] {
  if (documents.length === 0) return [];
  // All of the text's words, excluded ones too: a word the visitor left out never comes back as a keyword.
  const queryWords = queryWordsOf(query.text);
  const normalizedPrefix = normalizeText(prefix).trim();
  const keep = (candidate: Candidate): boolean =>
    candidate.word.startsWith(normalizedPrefix) && !queryWords.has(candidate.word) && isKeyword(candidate);
  const { words, weight: matches } = foregroundOf(documents, queryWords, keep, templateBlocks);
  const others = Math.max(0, background.documentCount - documents.length);
  const minimumDocuments = documents.length >= 2 ? 2 : 1;
  const scored: { word: string; score: number }[] = [];
  for (const { candidate, weight, documents: holding } of words.values()) {
    if (holding < minimumDocuments || weight < MIN_SUPPORT_SHARE * matches) continue;
    const frequency = background.frequencyOf(candidate.word, candidate.japanese);
    if (frequency === undefined) continue;
    const elsewhere = Math.min(others, Math.max(0, frequency - holding));
    // Only words more frequent among the matches than in the rest of the index.
    if (weight / matches <= elsewhere / Math.max(1, others)) continue;
    const score = logLikelihoodRatio(weight, matches - weight, elsewhere, others - elsewhere);
    if (score > 0) scored.push({ word: candidate.word, score });
  }
  return scored
    .sort((a, b) => b.score - a.score || (a.word < b.word ? -1 : 1))
    .slice(0, MAX_RELATED_KEYWORDS)
    .map((entry) => entry.word);
}

interface ForegroundWord {
  candidate: Candidate;
  /** Sum of the weights of the matching documents holding the word. */
  weight: number;
  /** Matching documents holding it. */
  documents: number;
}

/**
 * The keywords of the matching documents, each document weighing by how much it speaks of the
 * query (FULL_WEIGHT_MENTIONS), and the documents' total weight.
 */
function foregroundOf(
  documents: readonly StoredDocument[],
  queryWords: ReadonlySet<string>,
  keep: (candidate: Candidate) => boolean,
  templateBlocks: TemplateBlocks,
): { words: Map<string, ForegroundWord>; weight: number } {
  const keys = [...queryWords].filter((word) => [...word].length >= 2);
  const words = new Map<string, ForegroundWord>();
  // Lines already read on another matching page: boilerplate repeated across pages (a
  // directive's context line, a notice) is read once, as significant-text aggregations
  // filter duplicate text, so it cannot pass for the query's company on every page it is on.
  const linesRead = new Set<string>();
  let total = 0;
  for (const document of documents) {
    const title = normalizeText(mainTitleOf(document.title, document.url, templateBlocks));
    const main = normalizeText(mainTextOf(document.body, document.url, templateBlocks));
    // A page titled with the query is about it throughout: its headings say what the topic holds.
    const about = keys.some((key) => title.includes(key));
    const passages = passagesOf(main, keys);
    // A page that spells the query only in its template (a menu entry) says nothing more of it.
    const inTemplateOnly =
      passages.mentions === 0 && keys.some((key) => normalizeText(document.body).includes(key));
    const texts = [
      title,
      ...(about ? [normalizeText(document.headings)] : []),
      ...(inTemplateOnly ? [] : passages.texts),
    ];
    const weight = about ? 1 : Math.min(1, Math.max(1, passages.mentions) / FULL_WEIGHT_MENTIONS);
    total += weight;
    const seen = new Set<string>();
    const fresh = texts
      .flatMap((text) => text.split('\n'))
      .filter((line) => {
        if (linesRead.has(line)) return false;
        linesRead.add(line);
        return true;
      });
    for (const candidate of fresh.flatMap(candidatesOf)) {
      if (seen.has(candidate.word) || !keep(candidate)) continue;
      seen.add(candidate.word);
      const entry = words.get(candidate.word);
      if (entry === undefined) words.set(candidate.word, { candidate, weight, documents: 1 });
      else {
        entry.weight += weight;
        entry.documents += 1;
      }
    }
  }
  return { words, weight: total };
}

/**
 * The query's words: Latin words with their inflected forms (the search found pages through
 * them: docs/reference/site-search.md, Word forms), Japanese words as segmented and its
 * Japanese compounds whole.
 */
function queryWordsOf(query: string): Set<string> {
  const analyzed = analyzeText(query);
  const latin = analyzed.stream.filter((token) => !isJapanese(token));
  const words = new Set<string>(latin);
  for (const word of latin) for (const form of inflectedForms(word)) words.add(form);
  for (const word of analyzed.words) words.add(word.slice(WORD_MARK.length));
  for (const candidate of candidatesOf(normalizeText(query))) words.add(candidate.word);
  return words;
}

/**
 * Words a reader takes for keywords: Latin words of three letters or more, not numbers or stop
 * words; Japanese compounds of two characters or more that are not only prolonged-sound marks.
 */
function isKeyword({ word, japanese }: Candidate): boolean {
  if (japanese) return [...word].length >= 2 && /[^ー]/u.test(word);
  return word.length >= 3 && !/^\d+$/.test(word) && !STOP_WORDS.has(word);
}
