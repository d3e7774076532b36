import { normalizeText, runsOf } from '../analyzer.js';

/**
 * The form in which a synonym member and the words of a query are compared
 * (docs/reference/site-search.md, Synonyms): the analyzer's runs of the normalized text (NFKC,
 * lower case), so width, case and punctuation do not matter (`E-Mail` is `e mail`). Japanese
 * runs next to each other are joined, as the engine matches them written together
 * (`仮想 ホスト` is `仮想ホスト`); other runs are separated by a space. Empty when the text has no
 * letters or digits.
 */
export function synonymKey(text: string): string {
  let key = '';
  let previousJapanese = false;
  for (const run of runsOf(normalizeText(text))) {
    if (key !== '' && !(run.japanese && previousJapanese)) key += ' ';
    key += run.text;
    previousJapanese = run.japanese;
  }
  return key;
}

/** Words of a member as a visitor would type them: separated by white space. */
export function wordsOf(text: string): string[] {
  return text.split(/\s+/u).filter((word) => word !== '');
}
