/**
 * A short-lived child process that reads Japanese phrases with kuromoji's IPADIC dictionary
 * (docs/design/search-engine.md, Suggest readings): it gets the phrases as one IPC message, sends
 * back `[phrase, reading]` pairs and ends, so the dictionary's memory (about 250 MB) is held only
 * while new phrases are read, never by a serving process.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { isKana, toKatakana } from 'wanakana';

import type { IpadicFeatures, Tokenizer as KuromojiTokenizer } from '@sglkc/kuromoji';

type Kuromoji = typeof import('@sglkc/kuromoji');
type Tokenizer = KuromojiTokenizer<IpadicFeatures>;

const require = createRequire(import.meta.url);
const kuromoji = require('@sglkc/kuromoji') as Kuromoji;
const dictionary = path.join(path.dirname(require.resolve('@sglkc/kuromoji/package.json')), 'dict');

/** Katakana reading of a phrase, '' when a word of it has none (a kanji word the dictionary lacks). */
function readingOf(tokenizer: Tokenizer, phrase: string): string {
  let reading = '';
  for (const token of tokenizer.tokenize(phrase)) {
    if (token.reading !== undefined && token.reading !== '*') reading += token.reading;
    // A katakana or hiragana word the dictionary does not know reads as it is written.
    else if (isKana(token.surface_form)) reading += toKatakana(token.surface_form);
    else return '';
  }
  return reading;
}

process.once('message', (phrases: string[]) => {
  kuromoji.builder({ dicPath: dictionary }).build((error, tokenizer) => {
    // An unreadable dictionary ends the process with an error; the caller goes on without readings.
    if (error !== null && error !== undefined) throw error;
    const pairs = phrases.map((phrase) => [phrase, readingOf(tokenizer, phrase)]);
    process.send?.(pairs, () => process.disconnect());
  });
});
