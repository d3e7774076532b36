/** What the merge policy needs to know of a segment. */
export interface SegmentSize {
  liveCount: number;
  deletedRatio: number;
}

/** Segments of about the same size (within this factor) form one tier. */
const MERGE_FACTOR = 8;
/** Documents of the smallest tier; a batch is usually about this size. */
const TIER_BASE = 512;
/** A segment with more deleted documents than this share is rewritten without them. */
const MAX_DELETED_RATIO = 0.3;

/**
 * Which segments to merge (indexes into `segments`, oldest first), or undefined when none:
 * the segments of the smallest tier that holds MERGE_FACTOR of them, else a segment that is
 * mostly deletions. Tiers keep the number of segments logarithmic in the index size, and each
 * document is rewritten about log8(n) times over the life of the index.
 */
export function segmentsToMerge(segments: readonly SegmentSize[]): number[] | undefined {
  const tiers = new Map<number, number[]>();
  segments.forEach((segment, index) => {
    const tier = Math.floor(Math.log(Math.max(1, segment.liveCount / TIER_BASE)) / Math.log(MERGE_FACTOR));
    const members = tiers.get(tier) ?? [];
    members.push(index);
    tiers.set(tier, members);
  });
  const full = [...tiers.entries()]
    .filter(([, members]) => members.length >= MERGE_FACTOR)
    .sort(([a], [b]) => a - b);
  if (full.length > 0) return full[0]![1];
  const sparse = segments.findIndex((segment) => segment.deletedRatio > MAX_DELETED_RATIO);
  return sparse < 0 ? undefined : [sparse];
}
