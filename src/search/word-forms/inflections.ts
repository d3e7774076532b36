/**
 * The inflected forms of an English word (docs/reference/site-search.md, Word forms): the
 * spellings that differ from it by an inflectional ending (-s, -es, -ies, -ed, -ing, with a
 * final e dropped or a consonant doubled) and that Porter's stemmer takes to the same stem.
 * Porter alone also joins derivations of different meaning (university / universe, general /
 * generate, comprehension / comprehensive); the ending rules keep only the forms of one word,
 * and the stemmer keeps the rules from pairing unrelated words (sing / s, bred / bring).
 */
import { stemmer } from 'stemmer';

/** Words shorter than this are not expanded, and no form shorter than this is offered. */
export const MIN_FORM_LENGTH = 3;

/**
 * Words Porter's stemmer joins to another word of a different meaning by an ending that is not
 * an inflection there: Snowball's English stemmer keeps these as they are (its "invariant
 * forms"), so they find only themselves.
 */
const INVARIANT = new Set(['news', 'atlas', 'cosmos', 'bias', 'andes', 'howe', 'skis', 'skies', 'sky']);

const VOWEL = /[aeiouy]/;

/** The forms the word could be inflected from: itself and the word with each ending undone. */
function basesOf(word: string): string[] {
  const bases = [word];
  const add = (base: string) => {
    if (base.length >= MIN_FORM_LENGTH - 1) bases.push(base);
  };
  const undoDoubling = (base: string) => {
    const last = base[base.length - 1];
    if (base.length >= 3 && last === base[base.length - 2] && !VOWEL.test(last!)) add(base.slice(0, -1));
  };
  if (word.endsWith('ies') || word.endsWith('ied')) add(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) add(word.slice(0, -2));
  if (word.endsWith('s') && !word.endsWith('ss')) add(word.slice(0, -1));
  if (word.endsWith('ed')) {
    const stem = word.slice(0, -2);
    add(stem);
    add(`${stem}e`);
    undoDoubling(stem);
  }
  if (word.endsWith('ing')) {
    const stem = word.slice(0, -3);
    add(stem);
    add(`${stem}e`);
    undoDoubling(stem);
  }
  return bases;
}

/** The inflections of a base form, by the regular English spelling rules. */
function inflectionsOf(base: string): string[] {
  const forms = [base, `${base}s`, `${base}es`, `${base}ed`, `${base}ing`];
  const last = base[base.length - 1]!;
  if (last === 'e') forms.push(`${base}d`, `${base.slice(0, -1)}ing`);
  if (last === 'y' && !VOWEL.test(base[base.length - 2] ?? 'a')) {
    const root = base.slice(0, -1);
    forms.push(`${root}ies`, `${root}ied`);
  }
  if (!VOWEL.test(last)) forms.push(`${base}${last}ed`, `${base}${last}ing`);
  return forms;
}

/** Porter's stem of a lower-case word: words of one stem are spellings of one word at most. */
export function stemOf(word: string): string {
  return stemmer(word);
}

/**
 * The other inflected forms of a lower-case word of letters a-z (none for shorter words or
 * invariant ones), whether or not an index holds them.
 */
export function inflectedForms(word: string): string[] {
  if (word.length < MIN_FORM_LENGTH || INVARIANT.has(word) || !/^[a-z]+$/.test(word)) return [];
  const stem = stemmer(word);
  const forms = new Set<string>();
  for (const base of basesOf(word)) {
    for (const form of inflectionsOf(base)) {
      if (form === word || form.length < MIN_FORM_LENGTH || forms.has(form) || INVARIANT.has(form)) continue;
      if (stemmer(form) === stem) forms.add(form);
    }
  }
  return [...forms];
}
