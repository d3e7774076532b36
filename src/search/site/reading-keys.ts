import { isKana, toKatakana, toRomaji } from 'wanakana';

/** Romaji typed is read only from this many letters: two letters match too many readings. */
const MIN_ROMAJI_LETTERS = 3;
const ROMAJI = /^[a-z][a-z'-]*$/;

/**
 * The key readings are compared by (docs/reference/site-search.md, Suggest): Hepburn romaji of
 * the katakana form, so kana typed before conversion (かそう, カソウ), romaji typed (kasou,
 * kasou as kasoh is not) and a reading (カソウ) meet: `ー` and a doubled vowel read the same
 * (ステータス and すてーたす are both `suteetasu`).
 */
export function readingKey(text: string): string {
  return toRomaji(toKatakana(text));
}

/**
 * The reading key of what a visitor typed when it can be a reading: kana only, or romaji of at
 * least MIN_ROMAJI_LETTERS letters (an unfinished syllable at its end is kept: `kas` matches
 * `kasou`); undefined otherwise.
 */
export function typedReadingKey(typed: string): string | undefined {
  const text = typed.replaceAll(' ', '');
  if (text !== '' && isKana(text)) return readingKey(text);
  if (text.length >= MIN_ROMAJI_LETTERS && ROMAJI.test(text)) return readingKey(text);
  return undefined;
}
