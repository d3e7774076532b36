import { WORD_MARK } from '../analyzer.js';
import type { Segment } from './segment.js';

/** The stream terms of a segment that hold one Japanese character. */
export interface CharacterTerms {
  /** The character as a run of its own. */
  unigram: string | undefined;
  /** Bigrams starting with it. */
  starting: string[];
  /** Bigrams ending with it (and not starting with it). */
  ending: string[];
}

/** Per segment and character: segments never change their terms. */
const cache = new WeakMap<Segment, Map<string, CharacterTerms>>();

/**
 * The terms holding a character, found by one scan of the segment's terms and cached: a
 * character searched alone, or at the edge of a word (`X線`, `3月`), matches inside bigrams.
 */
export function termsWithCharacter(segment: Segment, character: string): CharacterTerms {
  let bySegment = cache.get(segment);
  if (bySegment === undefined) {
    bySegment = new Map();
    cache.set(segment, bySegment);
  }
  const cached = bySegment.get(character);
  if (cached !== undefined) return cached;
  const found: CharacterTerms = { unigram: undefined, starting: [], ending: [] };
  segment.forEachTerm((term) => {
    if (term === character) found.unigram = term;
    else if (term.length <= 4 && !term.startsWith(WORD_MARK)) {
      const characters = [...term];
      if (characters.length !== 2) return;
      if (characters[0] === character) found.starting.push(term);
      else if (characters[1] === character) found.ending.push(term);
    }
  });
  bySegment.set(character, found);
  return found;
}
