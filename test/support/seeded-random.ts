/**
 * A small deterministic generator of numbers in [0, 1): tests that try many generated inputs try
 * the same ones on every run, so a failure names an input that fails again.
 */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state / 2 ** 32;
  };
}
