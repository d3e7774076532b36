/** Every document matching a query, with its score; parallel arrays, in index order. */
export interface HitSet {
  count: number;
  /** Index into the segment list the hits were found in. */
  segment: Uint16Array;
  ordinal: Uint32Array;
  score: Float64Array;
}
