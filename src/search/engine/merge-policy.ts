/** What the merge policy needs to know of a segment. */
export interface SegmentSize {
  liveCount: number;
  deletedRatio: number;
}

/**
 * Segments of about the same size (within this factor) form one tier: tier t holds the segments
 * of 8^t to 8^(t+1) - 1 live documents, so the eight segments of a tier merge into one of the
 * next. Tiers start at one document, below any batch: a floor of 512 documents put smaller
 * batches (a batch of large pages is a few hundred) in the bottom tier with the segments merged
 * from them, which were merged there again (docs/design/search-engine.md, Segments).
 */
const MERGE_FACTOR = 8;
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
    const tier = tierOf(segment.liveCount);
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

/** The tier of a segment of `liveCount` documents: how many times MERGE_FACTOR goes into it. */
function tierOf(liveCount: number): number {
  let tier = 0;
  for (let size = liveCount; size >= MERGE_FACTOR; size = Math.floor(size / MERGE_FACTOR)) tier += 1;
  return tier;
}
