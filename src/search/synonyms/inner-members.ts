import { normalizeText } from '../analyzer.js';
import type { SynonymTable } from './synonym-table.js';

/** A run of Japanese text: what a visitor types without spaces between its words. */
const JAPANESE_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆ヶ]+/gu;
const JAPANESE_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆ヶ]/u;
/** Characters of the shortest member looked up inside a run: one character is no word. */
const MIN_MEMBER_CHARS = 2;

/**
 * The alternatives of a query word written without spaces that holds Japanese synonym members
 * (docs/reference/site-search.md, Synonyms): `仮想ホストの設定` holds 仮想ホスト, so it also finds
 * `バーチャルホストの設定`. Each alternative is the word with one member replaced by one of its
 * alternatives, so the word is still matched as written, whole (the AND of its parts, adjacent),
 * only with the other form. Members are found left to right, longest first; at most `limit`.
 */
export function innerAlternatives(word: string, table: SynonymTable, limit: number): string[] {
  if (table.maxJapaneseChars < MIN_MEMBER_CHARS) return [];
  const normalized = normalizeText(word);
  const alternatives: string[] = [];
  for (const run of normalized.matchAll(JAPANESE_RUN)) {
    const chars = [...run[0]];
    let offset = run.index;
    for (let at = 0; at < chars.length && alternatives.length < limit;) {
      const found = longestMemberAt(chars, at, table);
      if (found === undefined) {
        offset += chars[at]!.length;
        at += 1;
        continue;
      }
      const end = offset + found.member.length;
      for (const alternative of found.alternatives.slice(0, limit - alternatives.length)) {
        alternatives.push((normalized.slice(0, offset) + spaced(alternative) + normalized.slice(end)).trim());
      }
      offset = end;
      at += [...found.member].length;
    }
  }
  return alternatives;
}

/**
 * An alternative as it goes into the word: one in Latin letters (`virtual host`) stays apart from
 * Latin letters next to it (`apache` + `virtual host`), while Japanese text is joined, as the
 * visitor wrote it unspaced, so it is matched as one run.
 */
function spaced(alternative: string): string {
  const japanese = (char: string | undefined) => char !== undefined && JAPANESE_CHAR.test(char);
  const chars = [...alternative];
  return `${japanese(chars[0]) ? '' : ' '}${alternative}${japanese(chars.at(-1)) ? '' : ' '}`;
}

function longestMemberAt(
  chars: readonly string[],
  at: number,
  table: SynonymTable,
): { member: string; alternatives: readonly string[] } | undefined {
  for (
    let length = Math.min(table.maxJapaneseChars, chars.length - at);
    length >= MIN_MEMBER_CHARS;
    length -= 1
  ) {
    const member = chars.slice(at, at + length).join('');
    const alternatives = table.alternativesOf(member);
    if (alternatives !== undefined) return { member, alternatives };
  }
  return undefined;
}
