/** The live documents of one segment that match a clause, with per-field occurrence counts. */
export interface ClauseMatches {
  /** Local ordinals, ascending. */
  docs: Uint32Array;
  /** Occurrences of the clause: `tf[index * FIELD_COUNT + field]` for `docs[index]`. */
  tf: Float32Array;
  /** Mean occurrences of the clause's Japanese words (word view), same layout; absent without words. */
  wordTf: Float32Array | undefined;
}

/** No document matches. */
export const EMPTY_MATCHES: ClauseMatches = {
  docs: new Uint32Array(0),
  tf: new Float32Array(0),
  wordTf: undefined,
};
