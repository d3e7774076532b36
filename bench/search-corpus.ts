/**
 * The deterministic corpus of the search benchmark: documents of about 2 KB (UTF-8) of running
 * text drawn from Zipf-distributed vocabularies, ~40% English, ~40% Japanese, ~20% both, with
 * titles of 3-8 words, headings, a meta description on most pages, a URL of the site layout
 * (search-site-map.ts), a last-modified time spread over twelve years, and rare terms in about
 * one document in a thousand each. Document `i` depends on `i` only.
 */
import type { IndexedDocument } from '../src/search/index.js';
import { random } from './bench-site-pages.js';
import { documentUrl } from './search-site-map.js';
import { corpusVocabulary } from './search-vocabulary.js';
import { RARE_ENGLISH, RARE_JAPANESE } from './search-words.js';

/** Chance of each rare term per document. */
const RARE_RATE = 0.001;
const BODY_BYTES_MIN = 1500;
const BODY_BYTES_MAX = 2300;
const FIRST_MODIFIED = Date.UTC(2014, 0, 1) / 1000;
const MODIFIED_SPAN = 12 * 365 * 86_400;

type Language = 'en' | 'ja' | 'mixed';

/** Text generation for one document, from its own random sequence. */
class DocumentWriter {
  private readonly vocabulary = corpusVocabulary();

  constructor(private readonly next: () => number) {}

  chance(p: number): boolean {
    return this.next() < p;
  }

  between(low: number, high: number): number {
    return low + Math.floor(this.next() * (high - low + 1));
  }

  englishSentence(): string {
    const length = this.between(6, 20);
    const words: string[] = [];
    for (let index = 0; index < length; index += 1) {
      let word = this.chance(0.015)
        ? String(this.between(1, 2025))
        : this.vocabulary.englishText.pick(this.next());
      if (index > 0 && index < length - 1 && this.chance(0.08)) word += ',';
      words.push(word);
    }
    return `${capitalize(words.join(' '))}.`;
  }

  japaneseNoun(): string {
    const noun = this.vocabulary.japaneseText.pick(this.next());
    return this.chance(0.15) ? noun + this.vocabulary.japaneseText.pick(this.next()) : noun;
  }

  japaneseSentence(): string {
    const chunks = this.between(1, 4);
    let sentence = '';
    for (let index = 0; index < chunks; index += 1) {
      sentence += this.chance(0.03)
        ? `${this.between(2014, 2025)}年${this.between(1, 12)}月`
        : this.japaneseNoun();
      sentence += this.vocabulary.particles.pick(this.next());
      if (this.chance(0.15)) sentence += '、';
    }
    return `${sentence}${this.japaneseNoun()}${this.vocabulary.endings.pick(this.next())}。`;
  }

  sentence(language: Language): string {
    const english = language === 'en' || (language === 'mixed' && this.chance(0.5));
    return english ? this.englishSentence() : this.japaneseSentence();
  }

  title(language: Language): string {
    const length = this.between(3, 8);
    const english: string[] = [];
    let japanese = '';
    for (let index = 0; index < length; index += 1) {
      const isEnglish = language === 'en' || (language === 'mixed' && index < length / 2);
      if (isEnglish) english.push(capitalize(this.vocabulary.englishTitle.pick(this.next())));
      else {
        const joiner = japanese === '' ? '' : ['', 'の', ' ', '・', 'と'][this.between(0, 4)]!;
        japanese += joiner + this.vocabulary.japaneseText.pick(this.next());
      }
    }
    return [english.join(' '), japanese].filter((part) => part !== '').join(' ');
  }

  heading(language: Language): string {
    const english = language === 'en' || (language === 'mixed' && this.chance(0.5));
    const length = this.between(1, 4);
    if (english) {
      return Array.from({ length }, () => capitalize(this.vocabulary.englishTitle.pick(this.next()))).join(
        ' ',
      );
    }
    return Array.from({ length }, () => this.vocabulary.japaneseText.pick(this.next())).join('の');
  }
}

export function corpusDocument(index: number): IndexedDocument {
  const next = random(Math.imul(index + 1, 0x9e3779b1) ^ 0x5bd1e995);
  const writer = new DocumentWriter(next);
  const roll = next();
  const language: Language = roll < 0.4 ? 'en' : roll < 0.8 ? 'ja' : 'mixed';
  const rareEnglish = RARE_ENGLISH.filter(() => next() < RARE_RATE);
  const rareJapanese = RARE_JAPANESE.filter(() => next() < RARE_RATE);
  const url = documentUrl(index, next);
  const title = writer.title(language);
  const headings = Array.from({ length: writer.between(1, 3) }, () => writer.heading(language)).join('\n');
  const description = writer.chance(0.7) ? writer.sentence(language) : '';

  const target = writer.between(BODY_BYTES_MIN, BODY_BYTES_MAX);
  let body = '';
  let bytes = 0;
  let sentencesInParagraph = 0;
  let rare = 0;
  while (bytes < target) {
    let sentence = writer.sentence(language);
    // Rare terms go into the first sentences, so short documents hold them too.
    if (rare < rareEnglish.length) sentence = `${rareEnglish[rare++]!} ${sentence}`;
    else if (rare < rareEnglish.length + rareJapanese.length)
      sentence = `${rareJapanese[rare++ - rareEnglish.length]!}について${sentence}`;
    const separator = body === '' ? '' : sentencesInParagraph >= writer.between(3, 6) ? '\n' : ' ';
    sentencesInParagraph = separator === '\n' ? 0 : sentencesInParagraph + 1;
    body += separator + sentence;
    bytes += Buffer.byteLength(sentence) + separator.length;
  }
  const textBytes =
    Buffer.byteLength(title) + Buffer.byteLength(headings) + Buffer.byteLength(description) + bytes;
  return {
    url,
    title,
    description,
    headings,
    body,
    contentSize: 6000 + Math.round(textBytes * (1.5 + next())),
    lastModified: FIRST_MODIFIED + Math.floor(next() * MODIFIED_SPAN),
    doctype: 'html',
  };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
